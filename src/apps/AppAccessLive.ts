/** `AppAccess` as `Authorization`, `AppRegistry` and `DatabaseSelection` answer it. */
import { Effect, Layer } from "effect"
import { AppAccess } from "../../domain/AppAccess.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"

export const AppAccessLive = Layer.effect(
  AppAccess,
  Effect.gen(function* () {
    const authorization = yield* Authorization
    const apps = yield* AppRegistry
    const selection = yield* DatabaseSelection
    return AppAccess.of({
      enter: Effect.fn("AppAccess.enter")(function* (caller, action, app, where) {
        const scope = yield* authorization.clusterScope(caller, action, where)
        yield* apps.require(scope.clusterId, app)
        const database = yield* selection.select(scope, where.database)
        return { scope, database }
      })
    })
  })
)
