/**
 * `DatabaseSelection` over the control plane: the asked-for name, else the key's
 * stored default, else `default`; a name the cluster does not have is `DatabaseNotFound`.
 */
import { Effect, Layer, Schema } from "effect"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { DatabaseNotFound, InvalidDatabaseName } from "../../domain/Errors.js"
import { DatabaseName } from "../../domain/Ids.js"
import { DatabasesRepo } from "./DatabasesRepo.js"

const isName = Schema.is(DatabaseName)

export const DatabaseSelectionLive = Layer.effect(
  DatabaseSelection,
  Effect.map(DatabasesRepo, (databases) =>
    DatabaseSelection.of({
      // Untraced: on every data request, and mostly in memory.
      select: Effect.fnUntraced(function* (scope, requested) {
        const name = requested ?? scope.defaultDatabase ?? "default"
        if (!isName(name)) {
          return yield* new InvalidDatabaseName({
            message: `'${name}' is not a valid database name.`,
            hint: "Names start with a letter and hold at most 64 letters, digits or underscores."
          })
        }
        const known = yield* databases.known(scope.clusterId)
        if (known.has(name) || (yield* databases.exists(scope.clusterId, name))) return name
        return yield* new DatabaseNotFound({
          message: `Database '${name}' not found in cluster '${scope.clusterName}'.`,
          hint: "GET /v1/databases lists the databases; POST /v1/databases creates one."
        })
      })
    })
  )
)
