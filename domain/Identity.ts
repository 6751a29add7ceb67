/**
 * Who is calling and what they may do. A request is authenticated once, by the
 * `Authentication` middleware, into a `Caller`; handlers then ask `Authorization`
 * (`Authorization.ts`) for the scope they act in.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import { Context, Schema } from "effect"
import type { Effect, Redacted } from "effect"
import { ErrorWire } from "./Errors.js"
import type { Unauthorized } from "./Errors.js"
import { ApiKeyId, ClusterId, DatabaseName, OrganizationId, UserId } from "./Ids.js"

/** What a cluster API key may do in its cluster's data plane. */
export const Permission = Schema.Literal("admin", "read_write", "write_only", "read_only")
export type Permission = typeof Permission.Type

/** A user's role in an organization. */
export const OrganizationRole = Schema.Literal("admin", "member")
export type OrganizationRole = typeof OrganizationRole.Type

/** A request authenticated by a cluster API key (`rt_…`). */
export class ApiKeyCaller extends Schema.TaggedClass<ApiKeyCaller>()("ApiKeyCaller", {
  keyId: ApiKeyId,
  keyName: Schema.String,
  permission: Permission,
  organizationId: OrganizationId,
  organizationName: Schema.String,
  clusterId: ClusterId,
  clusterName: Schema.String,
  /** The database selected when the key was created. */
  defaultDatabase: DatabaseName
}) {}

/** The session a session JWT stands for: what signing out ends. */
export class SessionRef extends Schema.Class<SessionRef>("SessionRef")({
  id: Schema.String,
  /** Epoch milliseconds. */
  expiresAt: Schema.Number
}) {}

/** A request authenticated as a user: a session JWT from login, or an OIDC access token. */
export class UserCaller extends Schema.TaggedClass<UserCaller>()("UserCaller", {
  userId: UserId,
  email: Schema.String,
  via: Schema.Literal("session", "oauth"),
  /** Present for a session JWT. */
  session: Schema.optional(SessionRef)
}) {}

export type Caller = ApiKeyCaller | UserCaller

/** The caller of the request being handled. */
export class CurrentCaller extends Context.Tag("sluice/CurrentCaller")<CurrentCaller, Caller>() {}

/** Turns a bearer credential into a caller. Every failure is the same `Unauthorized`. */
export class Authenticator extends Context.Tag("sluice/Authenticator")<
  Authenticator,
  {
    readonly authenticate: (
      credential: Redacted.Redacted<string>
    ) => Effect.Effect<Caller, Unauthorized>
  }
>() {}

/** Bearer authentication for every protected group. */
export class Authentication extends HttpApiMiddleware.Tag<Authentication>()(
  "sluice/Authentication",
  {
    failure: ErrorWire.Unauthorized,
    provides: CurrentCaller,
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}
