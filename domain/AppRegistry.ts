/**
 * Per-cluster apps: the catalog, what a cluster has installed, and the
 * gate in front of an app's native endpoints. Installing and uninstalling touch only the
 * control plane's record, so uninstalling keeps the app's data and reinstalling restores
 * access to it.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { App } from "./api/AppsApi.js"
import type { AppId } from "./AppIds.js"
import type { AppNotInstalled } from "./Errors.js"
import type { ClusterId } from "./Ids.js"

export class AppRegistry extends Context.Tag("sluice/AppRegistry")<
  AppRegistry,
  {
    /** Every app a cluster may install, with whether `cluster` has it. */
    readonly list: (cluster: ClusterId) => Effect.Effect<ReadonlyArray<App>>
    /** Idempotent: installing an installed app keeps its first installation. */
    readonly install: (cluster: ClusterId, app: AppId) => Effect.Effect<App>
    /** Idempotent; only the record goes, the cluster's data stays. */
    readonly uninstall: (cluster: ClusterId, app: AppId) => Effect.Effect<App>
    readonly installed: (cluster: ClusterId, app: AppId) => Effect.Effect<boolean>
    /** Succeeds when the app is installed on the cluster; the error's hint says how to install it. */
    readonly require: (cluster: ClusterId, app: AppId) => Effect.Effect<void, AppNotInstalled>
  }
>() {}
