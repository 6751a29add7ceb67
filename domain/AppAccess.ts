/**
 * The way into a cluster app, for every transport and for a program that embeds sluice:
 * the caller may do the action on the cluster it names, the app is installed there, and
 * the database is the one it asked for (else its key's default, else `default`). Each
 * app's capability also checks its app itself, so skipping this meets the same refusal.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { AppId } from "./AppIds.js"
import type { ClusterScope, DataAction, ScopeNames } from "./Authorization.js"
import type {
  AppNotInstalled,
  BadRequest,
  DatabaseNotFound,
  Forbidden,
  InvalidDatabaseName,
  NotFound
} from "./Errors.js"
import type { Caller } from "./Identity.js"
import type { DatabaseName } from "./Ids.js"

/** Which cluster and database a request names; absent ones are inferred (see `ScopeNames`). */
export type AppParams = ScopeNames & { readonly database: string | undefined }

/** Where an app request acts: the caller's cluster scope and the selected database. */
export interface AppPlace {
  readonly scope: ClusterScope
  readonly database: DatabaseName
}

export class AppAccess extends Context.Tag("sluice/AppAccess")<
  AppAccess,
  {
    /** Checks, in this order, the caller's permission, the app, then the database. */
    readonly enter: (
      caller: Caller,
      action: DataAction,
      app: AppId,
      where: AppParams
    ) => Effect.Effect<
      AppPlace,
      BadRequest | Forbidden | NotFound | AppNotInstalled | InvalidDatabaseName | DatabaseNotFound
    >
  }
>() {}
