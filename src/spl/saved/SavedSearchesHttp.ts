/**
 * `/v1/apps/spl/searches`: the five saved-search endpoints over `SavedSearches`. This
 * adapter only reads the caller, the place and the database parameter (or header) of
 * the request; every rule is the capability's.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../../domain/Api.js"
import { CurrentCaller } from "../../../domain/Identity.js"
import { SavedSearches } from "../../../domain/SavedSearches.js"
import { requestedDatabase } from "../../http/DatabaseParam.js"

const placeOf = (params: { readonly organization: string; readonly cluster: string }) => ({
  organization: params.organization,
  cluster: params.cluster
})

export const SavedSearchesHttpLive = HttpApiBuilder.group(SluiceApi, "savedSearches", (handlers) =>
  Effect.gen(function* () {
    const searches = yield* SavedSearches
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) => {
          const { organization, cluster, ...filters } = urlParams
          return searches.list(caller, { organization, cluster }, filters)
        })
      )
      .handle("create", ({ urlParams, payload }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const selected = yield* requestedDatabase(urlParams.database)
          const search = yield* searches.create(caller, placeOf(urlParams), payload, selected)
          return { search }
        })
      )
      .handle("get", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(searches.get(caller, placeOf(urlParams), path.search_id), (search) => ({
            search
          }))
        )
      )
      .handle("update", ({ path, urlParams, payload }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.map(
            searches.update(caller, placeOf(urlParams), path.search_id, payload),
            (search) => ({ search })
          )
        )
      )
      .handle("delete", ({ path, urlParams }) =>
        Effect.flatMap(CurrentCaller, (caller) =>
          Effect.as(searches.remove(caller, placeOf(urlParams), path.search_id), {
            deleted: true as const
          })
        )
      )
  })
)
