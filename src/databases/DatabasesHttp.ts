/** `/v1/databases`: list, create and delete a cluster's databases. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { Conflict, NotFound } from "../../domain/Errors.js"
import { S3Storage } from "../../domain/api/ClusterModels.js"
import { DatabasesRepo } from "./DatabasesRepo.js"
import type { StoredStorage } from "./DatabasesRepo.js"
import { EngineDatabases } from "./EngineDatabases.js"
import { refuseReserved } from "./ReservedDatabases.js"

const DEFAULT_DATABASE = "default"

/** Where a database's data and backups go; never its role. */
const shownStorage = ({ data, backups }: StoredStorage) => new S3Storage({ data, backups })

export const DatabasesHttpLive = HttpApiBuilder.group(SluiceApi, "databases", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const databases = yield* DatabasesRepo
    const engine = yield* EngineDatabases
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("read", urlParams)
          const rows = yield* databases.listWithStorage(scope.clusterId)
          return {
            databases: rows.map(({ name, s3_storage }) => ({
              name,
              s3_storage: s3_storage === null ? null : shownStorage(s3_storage)
            })),
            organization: { name: scope.organizationName },
            cluster: { id: scope.clusterId, name: scope.clusterName }
          }
        })
      )
      .handle("create", ({ urlParams, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_databases", urlParams)
          const name = payload.name
          yield* refuseReserved(name)
          const storage =
            payload.s3_storage === undefined
              ? null
              : {
                  data: payload.s3_storage.data,
                  backups: payload.s3_storage.backups,
                  role_arn: payload.s3_storage.role_arn
                }
          if (!(yield* databases.create(scope.clusterId, name, storage))) {
            return yield* new Conflict({
              message: `Database '${name}' already exists in cluster '${scope.clusterName}'.`,
              hint: "Choose another name, or use the existing database."
            })
          }
          // Without the engine database the row would name nothing: take it back.
          yield* engine
            .create(scope, name)
            .pipe(Effect.tapError(() => databases.remove(scope.clusterId, name)))
          const database = {
            name,
            s3_storage: storage === null ? null : shownStorage(storage)
          }
          return { name, database, organization: { name: scope.organizationName } }
        })
      )
      .handle("delete", ({ path, urlParams }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.clusterScope("manage_databases", urlParams)
          const name = path.database
          yield* refuseReserved(name)
          if (name === DEFAULT_DATABASE) {
            return yield* new Conflict({
              message: "The default database cannot be deleted.",
              hint: "Delete its tables instead (DELETE /v1/tables/{table})."
            })
          }
          if (!(yield* databases.exists(scope.clusterId, name))) {
            return yield* new NotFound({
              message: `Database '${name}' not found in cluster '${scope.clusterName}'.`,
              hint: "GET /v1/databases lists the databases."
            })
          }
          // Data first: if the drop fails the database stays listed and can be retried.
          yield* engine.drop(scope, name)
          yield* databases.remove(scope.clusterId, name)
          return { deleted: true } as const
        })
      )
  })
)
