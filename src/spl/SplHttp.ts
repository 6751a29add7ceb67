/**
 * `POST /v1/spl/search` and `GET /v1/spl/capabilities`: the HTTP side of `SplSearch`.
 * The search is a data request like `POST /v1/query` (the same scope, database
 * selection and query id); the manifest needs no credential.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { SplSearch, SplSearchQuery } from "../../domain/SplSearch.js"
import { requestScopes } from "../http/RequestScope.js"

export const SplHttpLive = HttpApiBuilder.group(SluiceApi, "spl", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const spl = yield* SplSearch
    return handlers.handle("search", ({ payload, urlParams }) =>
      Effect.gen(function* () {
        const { scope, database } = yield* scopes.dataScope("query", urlParams)
        return yield* spl.search(
          scope,
          database,
          new SplSearchQuery({
            spl: payload.spl,
            earliest: payload.earliest,
            latest: payload.latest,
            includeFieldStatistics: payload.include_field_statistics,
            explain: payload.explain,
            queryId: payload.query_id ?? crypto.randomUUID()
          })
        )
      })
    )
  })
)

export const SplCapabilitiesHttpLive = HttpApiBuilder.group(
  SluiceApi,
  "splCapabilities",
  (handlers) =>
    Effect.map(SplSearch, (spl) => handlers.handle("capabilities", () => spl.capabilities))
)
