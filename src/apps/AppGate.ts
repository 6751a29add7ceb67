/**
 * The gate in front of an app's native endpoints (decisions.md §10): they answer 404 with
 * a hint naming the app while it is not installed on the cluster. Uninstalling removes
 * only the installation record, so reinstalling restores access to the same data.
 */
import { Effect, Option } from "effect"
import type { AppId } from "../../domain/api/AppsApi.js"
import { NotFound } from "../../domain/Errors.js"
import type { ClusterId } from "../../domain/Ids.js"
import { appName, installHint } from "./AppCatalog.js"
import { AppsRepo } from "./AppsRepo.js"

export class AppGate extends Effect.Service<AppGate>()("sluice/AppGate", {
  effect: Effect.gen(function* () {
    const apps = yield* AppsRepo
    return {
      /** Whether the app is installed, for callers with their own status (gRPC). */
      installed: (cluster: ClusterId, app: AppId) => apps.isInstalled(cluster, app),

      /** Succeeds when the app is installed on the cluster, else a 404 naming the app. */
      require: Effect.fn("AppGate.require")(function* (cluster: ClusterId, app: AppId) {
        if (yield* apps.isInstalled(cluster, app)) return
        const names = yield* apps.names(cluster)
        return yield* new NotFound({
          message: `The app ${app} (${appName(app)}) is not installed on this cluster.`,
          hint: installHint(app, Option.getOrUndefined(names))
        })
      })
    }
  }),
  dependencies: [AppsRepo.Default]
}) {}
