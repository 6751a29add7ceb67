/**
 * Command-line login by the device flow (RFC 8628). The command line
 * starts a login and polls with its secret device code; the user opens the service's
 * page, signs in, compares the short user code with the one the terminal shows, and
 * approves or denies. An approved login hands out one session token, once. Codes expire
 * on the Effect `Clock`.
 */
import { Context, Schema } from "effect"
import type { Effect, Redacted } from "effect"
import type {
  DeviceLoginEnded,
  DeviceLoginPending,
  Forbidden,
  TooManyRequests,
  Unauthorized
} from "./Errors.js"
import type { UserCaller } from "./Identity.js"
import { UserId } from "./Ids.js"

/** A login just started: what the command line shows and polls with. */
export class DeviceLoginStarted extends Schema.Class<DeviceLoginStarted>("DeviceLoginStarted")({
  /** The command line's secret: whoever holds it receives the token. */
  deviceCode: Schema.String,
  /** What the user compares and types: `XXXX-XXXX`, consonants only. */
  userCode: Schema.String,
  expiresInSeconds: Schema.Int,
  /** The least time between two polls. */
  intervalSeconds: Schema.Int
}) {}

/** An approved login's credential: a session token of the approving user. */
export class DeviceLoginGranted extends Schema.Class<DeviceLoginGranted>("DeviceLoginGranted")({
  token: Schema.String,
  userId: UserId,
  email: Schema.String
}) {}

/** A login awaiting approval, as a signed-in user sees it before deciding. */
export class DeviceLoginRequest extends Schema.Class<DeviceLoginRequest>("DeviceLoginRequest")({
  userCode: Schema.String,
  /** The address that started the login, as the service saw it. */
  client: Schema.String,
  /** The program that started it, as it named itself; null when it named none. */
  clientName: Schema.NullOr(Schema.String),
  clientVersion: Schema.NullOr(Schema.String),
  /** Epoch milliseconds on the service's clock. */
  startedAt: Schema.Number,
  expiresAt: Schema.Number
}) {}

/**
 * A user signed in on the approval page for one login. `pageSession` is what the page's
 * decision form carries: it ties the decision to this sign-in (a form posted from another
 * site cannot know it).
 */
export class DeviceLoginSignedIn extends Schema.Class<DeviceLoginSignedIn>("DeviceLoginSignedIn")({
  userCode: Schema.String,
  email: Schema.String,
  pageSession: Schema.Redacted(Schema.String),
  /** Epoch milliseconds on the service's clock. */
  expiresAt: Schema.Number,
  /** Which program asks, from where and since when: what the user decides on. */
  request: DeviceLoginRequest
}) {}

export const DeviceDecision = Schema.Literal("approve", "deny")
export type DeviceDecision = typeof DeviceDecision.Type

export class DeviceAuthorization extends Context.Tag("sluice/DeviceAuthorization")<
  DeviceAuthorization,
  {
    /**
     * A new login for `client` (the caller's address), started by `software` (the program
     * as it named itself, shown to the user asked to approve); `TooManyRequests` when that
     * address started too many lately, or too many wait in all.
     */
    readonly start: (
      client: string,
      software?: { readonly name: string; readonly version: string | null }
    ) => Effect.Effect<DeviceLoginStarted, TooManyRequests>
    /** The token once approved (then the code is spent); pending, denied or expired else. */
    readonly poll: (
      deviceCode: string
    ) => Effect.Effect<DeviceLoginGranted, DeviceLoginPending | DeviceLoginEnded>
    /**
     * The user code as typed (any case, with or without the dash), if it awaits approval.
     * Codes `client` typed that were not found are counted: too many, `TooManyRequests`.
     */
    readonly awaiting: (
      userCode: string,
      client: string
    ) => Effect.Effect<string, DeviceLoginEnded | TooManyRequests>
    /**
     * Signs a user in on the page of a login that awaits approval; failed sign-ins are
     * throttled as password logins are.
     */
    readonly signIn: (
      userCode: string,
      email: string,
      password: Redacted.Redacted<string>,
      client: string
    ) => Effect.Effect<DeviceLoginSignedIn, Unauthorized | DeviceLoginEnded | TooManyRequests>
    /** The signed-in user's decision; `Unauthorized` for a page session that is not the login's. */
    readonly decide: (
      userCode: string,
      pageSession: Redacted.Redacted<string>,
      decision: DeviceDecision
    ) => Effect.Effect<DeviceDecision, Unauthorized | DeviceLoginEnded>
    /**
     * The login awaiting approval under the user code, for `user`, signed in elsewhere (the
     * console); codes `client` typed that were not found count as in `awaiting`.
     * `Forbidden` unless `user` came with a sluice session of an account that still exists
     * (an OAuth token cannot approve: the login would get a sluice session).
     */
    readonly request: (
      userCode: string,
      user: UserCaller,
      client: string
    ) => Effect.Effect<DeviceLoginRequest, Forbidden | DeviceLoginEnded | TooManyRequests>
    /** `user`'s decision on a login awaiting approval, without a page session; `Forbidden` as for `request`. */
    readonly decideAs: (
      userCode: string,
      user: UserCaller,
      decision: DeviceDecision,
      client: string
    ) => Effect.Effect<DeviceDecision, Forbidden | DeviceLoginEnded | TooManyRequests>
  }
>() {}
