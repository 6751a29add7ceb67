/**
 * `SavedSearches` over the control plane. Each call resolves its place first (a member of
 * the organization, its named cluster, the spl-app installed there), then applies the
 * visibility rules (private to the creator, or shared with the organization) to the row.
 */
import { Effect, Layer, Option } from "effect"
import {
  SavedSearch,
  SavedSearchList,
  SavedSearchMetadata
} from "../../../domain/api/SavedSearchesApi.js"
import { Authorization, ClusterScope } from "../../../domain/Authorization.js"
import type { OrganizationScope } from "../../../domain/Authorization.js"
import { AppIds } from "../../../domain/AppIds.js"
import { AppRegistry } from "../../../domain/AppRegistry.js"
import { DatabaseSelection } from "../../../domain/DatabaseSelection.js"
import { Forbidden, NotFound, SavedSearchNotFound } from "../../../domain/Errors.js"
import type { Caller } from "../../../domain/Identity.js"
import type { SavedSearchId } from "../../../domain/Ids.js"
import { SavedSearches } from "../../../domain/SavedSearches.js"
import type { SavedSearchPlace } from "../../../domain/SavedSearches.js"
import { SplCompiler } from "../../../domain/SplCompiler.js"
import { checkWindow } from "../search/Window.js"
import { ClustersRepo } from "../../clusters/ClustersRepo.js"
import { LIST_LIMIT, NewSavedSearch, SavedSearchesRepo } from "./SavedSearchesRepo.js"
import type { SavedSearchChanges, SavedSearchRow } from "./SavedSearchesRepo.js"

const metadataOf = (row: SavedSearchRow) =>
  new SavedSearchMetadata({
    id: row.id,
    name: row.name,
    database: row.database,
    visualization: row.visualization,
    visibility: row.visibility,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString()
  })

const searchOf = (row: SavedSearchRow) =>
  new SavedSearch({
    ...metadataOf(row),
    spl: row.spl,
    earliest: row.earliest,
    latest: row.latest,
    span_minutes: row.span_minutes,
    keep_results: row.keep_results
  })

const notFound = (id: SavedSearchId) =>
  new SavedSearchNotFound({
    message: `Saved search '${id}' not found in this cluster.`,
    hint: "GET /v1/apps/spl/searches lists the searches you can see: your own and the shared ones."
  })

const notCreator = (what: string) =>
  new Forbidden({
    message: `Only the creator of a saved search may ${what} it.`,
    hint: "Save a copy of your own with POST /v1/apps/spl/searches."
  })

export const SavedSearchesLive = Layer.effect(
  SavedSearches,
  Effect.gen(function* () {
    const authorization = yield* Authorization
    const clusters = yield* ClustersRepo
    const apps = yield* AppRegistry
    const selection = yield* DatabaseSelection
    const compiler = yield* SplCompiler
    const repo = yield* SavedSearchesRepo

    /** The caller's standing and the cluster, once the app gate has let them through. */
    const placeOf = Effect.fnUntraced(function* (caller: Caller, place: SavedSearchPlace) {
      const scope = yield* authorization.organizationScope(
        caller,
        place.organization,
        "member",
        "use saved searches"
      )
      const found = yield* clusters.findByName(scope.organizationId, place.cluster)
      if (Option.isNone(found)) {
        const names = (yield* clusters.listOfOrganization(scope.organizationId)).map((c) => c.name)
        return yield* new NotFound({
          message: `Cluster '${place.cluster}' not found in '${scope.organizationName}'.`,
          hint: `Clusters of '${scope.organizationName}': ${names.join(", ") || "none"}.`
        })
      }
      yield* apps.require(found.value.id, AppIds.spl)
      return { scope, cluster: found.value }
    })

    type Place = Effect.Effect.Success<ReturnType<typeof placeOf>>

    /** The database a search names, checked as a data request's would be. */
    const databaseOf = (at: Place, requested: string | undefined) =>
      selection.select(clusterScopeOf(at.scope, at.cluster), requested)

    /** The row, if the caller may see it: their own, or a shared one. */
    const visible = Effect.fnUntraced(function* (at: Place, id: SavedSearchId) {
      const row = yield* repo.find(at.cluster.id, id)
      if (Option.isSome(row)) {
        const mine = row.value.creator_id === at.scope.user.userId
        if (mine || row.value.visibility === "shared") return row.value
      }
      return yield* notFound(id)
    })

    return SavedSearches.of({
      list: Effect.fn("SavedSearches.list")(function* (caller, place, filters) {
        const at = yield* placeOf(caller, place)
        const rows = yield* repo.visible(at.cluster.id, at.scope.user.userId, filters)
        return new SavedSearchList({
          searches: rows.slice(0, LIST_LIMIT).map(metadataOf),
          truncated: rows.length > LIST_LIMIT
        })
      }),

      create: Effect.fn("SavedSearches.create")(function* (caller, place, request, selected) {
        const at = yield* placeOf(caller, place)
        yield* compiler.compile(request.spl, {})
        yield* checkWindow(request.earliest, request.latest)
        const database = yield* databaseOf(at, request.database ?? selected)
        const row = yield* repo.create(
          new NewSavedSearch({
            organization_id: at.scope.organizationId,
            cluster_id: at.cluster.id,
            created_by: at.scope.user.userId,
            name: request.name,
            spl: request.spl,
            earliest: request.earliest,
            latest: request.latest,
            visualization: request.visualization,
            span_minutes: request.span_minutes,
            keep_results: request.keep_results,
            database,
            visibility: request.visibility
          })
        )
        return searchOf(row)
      }),

      get: Effect.fn("SavedSearches.get")(function* (caller, place, id) {
        const at = yield* placeOf(caller, place)
        return searchOf(yield* visible(at, id))
      }),

      update: Effect.fn("SavedSearches.update")(function* (caller, place, id, request) {
        const at = yield* placeOf(caller, place)
        const row = yield* visible(at, id)
        if (row.creator_id !== at.scope.user.userId) return yield* notCreator("change")
        if (request.spl !== undefined) yield* compiler.compile(request.spl, {})
        yield* checkWindow(
          request.earliest === undefined ? row.earliest : request.earliest,
          request.latest === undefined ? row.latest : request.latest
        )
        // A decoded request holds only the properties that were sent.
        const { database, ...sent } = request
        const changes: SavedSearchChanges =
          database === undefined ? sent : { ...sent, database: yield* databaseOf(at, database) }
        const updated = yield* repo.update(at.cluster.id, id, at.scope.user.userId, changes)
        if (Option.isNone(updated)) return yield* notFound(id)
        return searchOf(updated.value)
      }),

      remove: Effect.fn("SavedSearches.remove")(function* (caller, place, id) {
        const at = yield* placeOf(caller, place)
        const row = yield* visible(at, id)
        const mine = row.creator_id === at.scope.user.userId
        const adminOfShared = row.visibility === "shared" && at.scope.role === "admin"
        if (!mine && !adminOfShared) return yield* notCreator("delete")
        yield* repo.remove(at.cluster.id, id)
      })
    })
  })
)

// The scope a data request of this user would act in, for the database check.
const clusterScopeOf = (
  scope: OrganizationScope,
  cluster: { readonly id: ClusterScope["clusterId"]; readonly name: string }
) =>
  new ClusterScope({
    organizationId: scope.organizationId,
    organizationName: scope.organizationName,
    clusterId: cluster.id,
    clusterName: cluster.name,
    defaultDatabase: undefined,
    caller: scope.user
  })
