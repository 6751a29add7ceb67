/**
 * `DatabaseSelection` over the control plane: the asked-for name, else the key's
 * stored default, else `default`; a name the cluster does not have is `DatabaseNotFound`.
 */
import { Effect, Layer, Schema } from "effect"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { DatabaseNotFound, InvalidDatabaseName } from "../../domain/Errors.js"
import { DatabaseName } from "../../domain/Ids.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import { DatabasesRepo } from "./DatabasesRepo.js"

const isName = Schema.is(DatabaseName)

const invalid = (name: string) =>
  new InvalidDatabaseName({
    message: `'${name}' is not a valid database name.`,
    hint: "Names start with a letter and hold at most 64 letters, digits or underscores."
  })

export const DatabaseSelectionLive = Layer.effect(
  DatabaseSelection,
  Effect.map(DatabasesRepo, (databases) => {
    const notFound = (scope: ClusterScope, name: DatabaseName) =>
      new DatabaseNotFound({
        message: `Database '${name}' not found in cluster '${scope.clusterName}'.`,
        hint: "GET /v1/databases lists the databases; POST /v1/databases creates one."
      })
    // Untraced and without a generator: on every data request, and mostly in memory.
    return DatabaseSelection.of({
      select: (scope, requested) => {
        const name = requested ?? scope.defaultDatabase ?? "default"
        if (!isName(name)) return Effect.fail(invalid(name))
        return Effect.flatMap(databases.known(scope.clusterId), (known) =>
          known.has(name)
            ? Effect.succeed(name)
            : Effect.flatMap(databases.exists(scope.clusterId, name), (exists) =>
                exists ? Effect.succeed(name) : Effect.fail(notFound(scope, name))
              )
        )
      }
    })
  })
)
