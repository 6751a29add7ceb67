/**
 * What a caller may do, and where. Transports authenticate a request into a `Caller`
 * (see `Identity.ts`), then ask `Authorization` for the scope they act in: a cluster's
 * data plane or an organization's management plane. The answer is the resolved scope,
 * or the error that explains why not.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { BadRequest, Forbidden, NotFound } from "./Errors.js"
import { ApiKeyCaller, OrganizationRole, UserCaller } from "./Identity.js"
import type { Caller } from "./Identity.js"
import { ClusterId, DatabaseName, OrganizationId } from "./Ids.js"

/** Data-plane actions. */
export const DataAction = Schema.Literal(
  "manage_keys",
  "manage_databases",
  "delete_table",
  "insert",
  "query",
  "read"
)
export type DataAction = typeof DataAction.Type

/** The cluster a data-plane request acts on, as the caller is allowed to. */
export class ClusterScope extends Schema.Class<ClusterScope>("ClusterScope")({
  organizationId: OrganizationId,
  organizationName: Schema.String,
  clusterId: ClusterId,
  clusterName: Schema.String,
  /** The key's stored default database; users have none (`default` applies). */
  defaultDatabase: Schema.UndefinedOr(DatabaseName),
  caller: Schema.Union(ApiKeyCaller, UserCaller)
}) {}

/** A user's standing in an organization, for organization, cluster and app endpoints. */
export class OrganizationScope extends Schema.Class<OrganizationScope>("OrganizationScope")({
  organizationId: OrganizationId,
  organizationName: Schema.String,
  role: OrganizationRole,
  user: UserCaller
}) {}

/**
 * Which organization and cluster a request names. An absent organization is the user's
 * only one, else their organization `default`; an absent cluster is the organization's
 * only one, else its cluster `default`.
 */
export interface ScopeNames {
  readonly organization?: string | undefined
  readonly cluster?: string | undefined
}

/** `ScopeNames` and the database a request names (absent: the credential's default). */
export interface DataScopeNames extends ScopeNames {
  readonly database?: string | undefined
}

export class Authorization extends Context.Tag("sluice/Authorization")<
  Authorization,
  {
    /** The calling user, or `Forbidden` for an API key. */
    readonly user: (caller: Caller) => Effect.Effect<UserCaller, Forbidden>
    /**
     * The user's membership of `organization` with at least the role `need` (to do `what`).
     * Management endpoints always name the organization, so there is nothing to infer.
     */
    readonly organizationScope: (
      caller: Caller,
      organization: string,
      need: OrganizationRole,
      what: string
    ) => Effect.Effect<OrganizationScope, Forbidden | NotFound>
    /** The cluster a data-plane request acts on, if the caller may do `action` there. */
    readonly clusterScope: (
      caller: Caller,
      action: DataAction,
      params: ScopeNames
    ) => Effect.Effect<ClusterScope, BadRequest | Forbidden | NotFound>
  }
>() {}
