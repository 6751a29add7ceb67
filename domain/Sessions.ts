/**
 * Signing in with a password: a session JWT (12 hours) for an email and password,
 * signing out (the session is revoked at once on every node), and a password change, which
 * ends every session of the user and hands back a new one. Failed sign-ins are limited per
 * account and per client address, a wrong current password in a change included.
 */
import { Context } from "effect"
import type { Effect, Redacted } from "effect"
import type { LoginResponse } from "./api/AuthApi.js"
import type { BadRequest, TooManyRequests, Unauthorized } from "./Errors.js"
import type { UserCaller } from "./Identity.js"

export class Sessions extends Context.Tag("sluice/Sessions")<
  Sessions,
  {
    /**
     * A session for `email` and `password`; `client` is the caller's address, which failed
     * sign-ins are counted by. `Unauthorized` for either wrong (the same answer);
     * `TooManyRequests` past the limits, even for the right password.
     */
    readonly login: (
      email: string,
      password: Redacted.Redacted<string>,
      client: string
    ) => Effect.Effect<LoginResponse, Unauthorized | TooManyRequests>
    /** Ends the session `user` signed in with; `BadRequest` for an OAuth access token. */
    readonly logout: (user: UserCaller) => Effect.Effect<void, BadRequest>
    /**
     * Sets `next` as `user`'s password once `current` signs in as a login does, ending every
     * session of the user: the new session returned is the only one.
     */
    readonly changePassword: (
      user: UserCaller,
      current: Redacted.Redacted<string>,
      next: Redacted.Redacted<string>,
      client: string
    ) => Effect.Effect<LoginResponse, Unauthorized | TooManyRequests>
  }
>() {}
