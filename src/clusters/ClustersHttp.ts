/**
 * `/v1/clusters`: an organization's clusters, their lifecycle, metrics and the storage
 * check. User credentials only (a cluster key is a 403 from `Authorization`); members read,
 * admins change. A cluster of another organization is a 404, exactly like a missing one.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { ClusterNotFound } from "../../domain/Errors.js"
import type { ClusterId } from "../../domain/Ids.js"
import { Provisioner } from "../../domain/Provisioner.js"
import { StorageVerifier } from "../../domain/StorageVerifier.js"
import type { OrganizationScope } from "../../domain/Authorization.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import type { ClusterRecord } from "../../domain/ClusterLifecycle.js"
import { ClusterUsage } from "../../domain/ClusterUsage.js"
import { requestedStorage } from "./ClusterStorage.js"
import { clusterView } from "./ClusterView.js"

const notFound = (what: string) =>
  new ClusterNotFound({
    message: `Cluster ${what} not found in this organization.`,
    hint: "GET /v1/clusters?organization=<name> lists the organization's clusters."
  })

export const ClustersHttpLive = HttpApiBuilder.group(SluiceApi, "clusters", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const lifecycle = yield* ClusterLifecycle
    const provisioner = yield* Provisioner
    const usage = yield* ClusterUsage
    const storage = yield* StorageVerifier

    const view = (row: ClusterRecord) =>
      Effect.map(provisioner.status(row.id), (s) => clusterView(row, s))

    /** The organization's cluster with this id or name; a 404 for any other. */
    const ofScope = (scope: OrganizationScope, wanted: { id: ClusterId } | { name: string }) =>
      Effect.flatMap(lifecycle.find(scope.organizationId, wanted), (found) =>
        Option.match(found, {
          onNone: () => Effect.fail(notFound(`'${"id" in wanted ? wanted.id : wanted.name}'`)),
          onSome: Effect.succeed
        })
      )

    /** The caller's cluster `id` in `organization`, if the caller has role `need` there. */
    const cluster = (organization: string, id: ClusterId, need: "member" | "admin", what: string) =>
      Effect.flatMap(scopes.organizationScope(organization, need, what), (scope) =>
        ofScope(scope, { id })
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(
            urlParams.organization,
            "member",
            "list clusters"
          )
          const rows = yield* lifecycle.clustersOf(scope.organizationId)
          return {
            organization: {
              name: scope.organizationName,
              external_id: yield* lifecycle.externalId(scope.organizationId)
            },
            clusters: yield* Effect.forEach(rows, view)
          }
        })
      )
      .handle("get", ({ path, urlParams }) =>
        Effect.flatMap(
          cluster(urlParams.organization, path.cluster_id, "member", "read clusters"),
          view
        )
      )
      .handle("create", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(
            urlParams.organization,
            "admin",
            "create clusters"
          )
          yield* requestedStorage(payload)
          return yield* view(yield* lifecycle.create(scope.organizationId, payload))
        })
      )
      .handle("update", ({ path, payload, urlParams }) =>
        Effect.gen(function* () {
          const row = yield* cluster(
            urlParams.organization,
            path.cluster_id,
            "admin",
            "change clusters"
          )
          return yield* view(yield* lifecycle.update(row, payload))
        })
      )
      .handle("stop", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const row = yield* cluster(
            urlParams.organization,
            path.cluster_id,
            "admin",
            "pause clusters"
          )
          return yield* view(yield* lifecycle.pause(row, "admin"))
        })
      )
      .handle("resume", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const row = yield* cluster(
            urlParams.organization,
            path.cluster_id,
            "admin",
            "resume clusters"
          )
          return yield* view(yield* lifecycle.resume(row))
        })
      )
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const row = yield* cluster(
            urlParams.organization,
            path.cluster_id,
            "admin",
            "delete clusters"
          )
          yield* lifecycle.delete(row)
          return { deleted: true as const }
        })
      )
      .handle("metrics", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const row = yield* cluster(
            urlParams.organization,
            path.cluster_id,
            "member",
            "read metrics"
          )
          return yield* usage.metrics({ id: row.id, name: row.name }, urlParams)
        })
      )
      .handle("metricsByName", ({ urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(
            urlParams.organization,
            "member",
            "read metrics"
          )
          const row = yield* ofScope(scope, { name: urlParams.cluster })
          return yield* usage.metrics({ id: row.id, name: row.name }, urlParams)
        })
      )
      .handle("verifyS3Access", ({ payload, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(
            urlParams.organization,
            "admin",
            "verify storage"
          )
          const externalId = yield* lifecycle.externalId(scope.organizationId)
          return yield* storage.verify(payload.byo_s3, externalId)
        })
      )
  })
)

export const ClusterSizesHttpLive = HttpApiBuilder.group(SluiceApi, "clusterSizes", (handlers) =>
  Effect.map(ClusterLifecycle, (lifecycle) =>
    handlers.handle("sizes", () => Effect.succeed(lifecycle.sizes))
  )
)
