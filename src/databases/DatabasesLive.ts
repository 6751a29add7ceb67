/**
 * `Databases`: the control plane's record and the engine's database made and removed
 * together, the record first on create (taken back if the engine fails) and the data
 * first on delete (a failed drop leaves it listed, to retry).
 */
import { Effect, Layer } from "effect"
import { S3Storage } from "../../domain/api/ClusterModels.js"
import type { DatabaseInfo } from "../../domain/api/DatabasesApi.js"
import { Databases } from "../../domain/Databases.js"
import { Conflict, NotFound } from "../../domain/Errors.js"
import { DatabasesRepo } from "./DatabasesRepo.js"
import type { StoredStorage } from "./DatabasesRepo.js"
import { EngineDatabases } from "./EngineDatabases.js"
import { refuseReserved } from "./ReservedDatabases.js"

const DEFAULT_DATABASE = "default"

/** Where a database's data and backups go; never its role. */
const shownStorage = ({ data, backups }: StoredStorage) => new S3Storage({ data, backups })

export const DatabasesLive = Layer.effect(
  Databases,
  Effect.gen(function* () {
    const databases = yield* DatabasesRepo
    const engine = yield* EngineDatabases
    return Databases.of({
      list: Effect.fn("Databases.list")(function* (scope) {
        const rows = yield* databases.listWithStorage(scope.clusterId)
        return rows.map(({ name, s3_storage }): DatabaseInfo => ({
          name,
          s3_storage: s3_storage === null ? null : shownStorage(s3_storage)
        }))
      }),

      create: Effect.fn("Databases.create")(function* (scope, name, s3) {
        yield* refuseReserved(name)
        const storage =
          s3 === undefined ? null : { data: s3.data, backups: s3.backups, role_arn: s3.role_arn }
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
        return { name, s3_storage: storage === null ? null : shownStorage(storage) }
      }),

      remove: Effect.fn("Databases.remove")(function* (scope, name) {
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
      })
    })
  })
)
