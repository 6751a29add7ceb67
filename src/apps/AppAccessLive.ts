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
      // No span of its own, like the checks inside it: every app request passes here and is
      // mostly answered from memory, where a span costs the runtime ~45 operations (a fifth
      // of a cached metrics read's). What a check waits on (the control plane) is traced.
      enter: Effect.fnUntraced(function* (caller, action, app, where) {
        const scope = yield* authorization.clusterScope(caller, action, where)
        yield* apps.require(scope.clusterId, app)
        const database = yield* selection.select(scope, where.database)
        return { scope, database }
      })
    })
  })
)
