/** `AppRegistry` over the control plane's `apps` table and the static catalog. */
import { Effect, Layer, Option } from "effect"
import { App } from "../../domain/api/AppsApi.js"
import type { AppId } from "../../domain/api/AppsApi.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { AppNotInstalled } from "../../domain/Errors.js"
import type { ClusterId } from "../../domain/Ids.js"
import { appCatalog, appName, installHint } from "./AppCatalog.js"
import { AppsRepo } from "./AppsRepo.js"

const appOf = (id: AppId, installed: boolean) => new App({ id, name: appName(id), installed })

export const AppRegistryLive = Layer.effect(
  AppRegistry,
  Effect.map(AppsRepo, (apps) =>
    AppRegistry.of({
      list: (cluster) =>
        Effect.map(apps.installed(cluster), (installed) =>
          appCatalog.map((entry) => appOf(entry.id, installed.includes(entry.id)))
        ),
      install: (cluster, app) => Effect.as(apps.install(cluster, app), appOf(app, true)),
      uninstall: (cluster, app) => Effect.as(apps.uninstall(cluster, app), appOf(app, false)),
      installed: (cluster, app) => apps.isInstalled(cluster, app),
      require: Effect.fn("AppRegistry.require")(function* (cluster: ClusterId, app: AppId) {
        if (yield* apps.isInstalled(cluster, app)) return
        const names = yield* apps.names(cluster)
        return yield* new AppNotInstalled({
          message: `The app ${app} (${appName(app)}) is not installed on this cluster.`,
          hint: installHint(app, Option.getOrUndefined(names))
        })
      })
    })
  )
)
