/**
 * `AppRegistry` over the control plane's `apps` table and the static catalog.
 *
 * Every event and export request asks whether its app is installed, and the control
 * plane serves one connection at a time: a cluster's installed apps are read at most once
 * per `INSTALLED_TTL`. Installations change only through this registry, which forgets the
 * cluster's entry on every node as it changes one, so an install or uninstall is seen by
 * the next request (on another node, once it hears of it).
 */
import { Duration, Effect, Layer, Option } from "effect"
import { App } from "../../domain/api/AppsApi.js"
import type { AppId } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { AppNotInstalled } from "../../domain/Errors.js"
import type { ClusterId } from "../../domain/Ids.js"
import * as TtlCache from "../cache/TtlCache.js"
import { appCatalog, appName, installHint } from "./AppCatalog.js"
import { AppsRepo } from "./AppsRepo.js"

const INSTALLED_TTL = Duration.seconds(5)

const appOf = (id: AppId, installed: boolean) => new App({ id, name: appName(id), installed })

export const AppRegistryLive = Layer.scoped(
  AppRegistry,
  Effect.gen(function* () {
    const apps = yield* AppsRepo
    const installedApps = yield* TtlCache.shared("installed_apps", {
      ttl: INSTALLED_TTL,
      capacity: 10_000,
      keyOf: (cluster: ClusterId) => cluster,
      lookup: (cluster: ClusterId) => apps.installed(cluster)
    })
    const isInstalled = (cluster: ClusterId, app: AppId) =>
      Effect.map(installedApps.get(cluster), (installed) => installed.includes(app))
    return AppRegistry.of({
      list: (cluster) =>
        Effect.map(installedApps.get(cluster), (installed) =>
          appCatalog.map((entry) => appOf(entry.id, installed.includes(entry.id)))
        ),
      install: (cluster, app) =>
        apps
          .install(cluster, app)
          .pipe(Effect.ensuring(installedApps.invalidate(cluster)), Effect.as(appOf(app, true))),
      uninstall: (cluster, app) =>
        apps
          .uninstall(cluster, app)
          .pipe(Effect.ensuring(installedApps.invalidate(cluster)), Effect.as(appOf(app, false))),
      installed: isInstalled,
      // Untraced: asked by every app request and answered from the cache (AppAccessLive.ts).
      require: Effect.fnUntraced(function* (cluster: ClusterId, app: AppId) {
        if (yield* isInstalled(cluster, app)) return
        const names = yield* apps.names(cluster)
        return yield* new AppNotInstalled({
          message: `The app ${app} (${appName(app)}) is not installed on this cluster.`,
          hint: installHint(app, Option.getOrUndefined(names))
        })
      })
    })
  })
)
