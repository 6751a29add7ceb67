/**
 * `DeviceAuthorization` in this process's memory: a login lives ten minutes, so it need
 * not survive a restart (the command line starts again). Anyone may start one, so starts
 * are limited per client address, and the number waiting in all is bounded (memory);
 * user codes that are not found count against the address that typed them, so codes
 * cannot be guessed at speed (RFC 8628 §5.1). Time is the Effect `Clock`.
 */
import { randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import { Clock, Effect, Layer, Redacted } from "effect"
import {
  DeviceAuthorization,
  DeviceLoginGranted,
  DeviceLoginRequest,
  DeviceLoginSignedIn,
  DeviceLoginStarted
} from "../../domain/DeviceAuthorization.js"
import type { DeviceDecision, DeviceLoginUser } from "../../domain/DeviceAuthorization.js"
import {
  DeviceLoginEnded,
  DeviceLoginPending,
  TooManyRequests,
  Unauthorized
} from "../../domain/Errors.js"
import type { UserId } from "../../domain/Ids.js"
import { makeAttemptLimiter } from "./AttemptLimiter.js"
import type { AttemptLimit } from "./AttemptLimiter.js"
import { PasswordLogin } from "./PasswordLogin.js"
import { SessionTokens } from "./SessionTokens.js"

export const LOGIN_SECONDS = 600
export const POLL_SECONDS = 5
const MAX_WAITING = 100_000
/** Logins one client address may start in a window (one lives ten minutes). */
export const START_LIMIT: AttemptLimit = { attempts: 20, windowSeconds: LOGIN_SECONDS }
/** Unknown or expired user codes one client address may type in a window. */
export const CODE_LIMIT: AttemptLimit = { attempts: 10, windowSeconds: LOGIN_SECONDS }
// RFC 8628 §6.1: consonants only (no words), none that read alike; 20^8 codes.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"

interface User {
  readonly id: UserId
  readonly email: string
  readonly session_generation: number
}

type State =
  | { readonly _tag: "waiting" }
  | { readonly _tag: "signedIn"; readonly user: User; readonly pageSession: string }
  | { readonly _tag: "approved"; readonly user: User }
  | { readonly _tag: "denied" }

interface Login {
  readonly deviceCode: string
  readonly userCode: string
  /** The address that started it, shown to the user who decides in the console. */
  readonly client: string
  readonly expiresAt: number
  state: State
}

/** `BCDF-GHJK`, whatever case and separators the user typed. */
export const normalizeUserCode = (typed: string) => {
  const letters = typed.toUpperCase().replace(/[^A-Z]/g, "")
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : ""
}

const newUserCode = () =>
  normalizeUserCode(
    Array.from({ length: 8 }, () => USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)]).join(
      ""
    )
  )

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

const expired = new DeviceLoginEnded({
  reason: "expired_token",
  message: "This login code is unknown, has expired, or was already used.",
  hint: "Start the login again on the command line (`sluice login`)."
})
const denied = new DeviceLoginEnded({
  reason: "access_denied",
  message: "The login was denied on the approval page.",
  hint: "Start the login again if that was a mistake."
})
const pending = new DeviceLoginPending({
  message: "The login has not been approved yet.",
  hint: `Open verification_uri, sign in and approve the code; poll again in ${POLL_SECONDS} seconds.`
})
const staleSession = new Unauthorized({
  message: "This approval page is no longer signed in for this code.",
  hint: "Open the login link again and sign in."
})
const tooMany = new TooManyRequests({
  message: "Too many command-line logins are waiting for approval.",
  hint: "Try again in a minute.",
  retryAfterSeconds: 60
})
const tooManyStarts = (retryAfterSeconds: number) =>
  new TooManyRequests({
    message: "Too many command-line logins were started from this address.",
    hint: `Finish or wait for the ones started; try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds
  })
const tooManyCodes = (retryAfterSeconds: number) =>
  new TooManyRequests({
    message: "Too many unknown login codes were entered from this address.",
    hint: `Check the code the command line shows; try again in ${retryAfterSeconds} seconds.`,
    retryAfterSeconds
  })

/** The device flow over a sign-in and a token issuer (the live ones, or a test's). */
export const makeDeviceAuthorization = (dependencies: {
  readonly signIn: (
    email: string,
    password: Redacted.Redacted<string>,
    client: string
  ) => Effect.Effect<User, Unauthorized | TooManyRequests>
  readonly issue: (user: User) => Effect.Effect<string>
}) => {
  const starts = makeAttemptLimiter(tooManyStarts)
  const guesses = makeAttemptLimiter(tooManyCodes)
  const byDevice = new Map<string, Login>()
  const byUser = new Map<string, Login>()
  const forget = (login: Login) => {
    byDevice.delete(login.deviceCode)
    byUser.delete(login.userCode)
  }
  /** The live login under `code` in `index`, forgetting it once expired. */
  const find = (index: Map<string, Login>, code: string) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      const login = index.get(code)
      if (login === undefined) return Effect.fail(expired)
      if (login.expiresAt <= now) {
        forget(login)
        return Effect.fail(expired)
      }
      return Effect.succeed(login)
    })
  const awaitingLogin = (userCode: string) =>
    Effect.flatMap(find(byUser, normalizeUserCode(userCode)), (login) =>
      login.state._tag === "waiting" || login.state._tag === "signedIn"
        ? Effect.succeed(login)
        : Effect.fail(login.state._tag === "denied" ? denied : expired)
    )
  /** `awaitingLogin` for a code typed by `client`: only a code not found counts. */
  const typedLogin = (userCode: string, client: string) => {
    const keys = [[`address:${client}`, CODE_LIMIT]] as const
    return guesses.take(keys).pipe(
      Effect.zipRight(awaitingLogin(userCode)),
      Effect.tapErrorTag("DeviceLoginEnded", (ended) =>
        ended === denied ? guesses.giveBack(keys) : Effect.void
      ),
      Effect.tap(() => guesses.giveBack(keys))
    )
  }

  return DeviceAuthorization.of({
    start: Effect.fn("DeviceAuthorization.start")(function* (client: string) {
      yield* starts.take([[`address:${client}`, START_LIMIT]])
      const now = yield* Clock.currentTimeMillis
      for (const login of byDevice.values()) if (login.expiresAt <= now) forget(login)
      if (byDevice.size >= MAX_WAITING) return yield* tooMany
      let userCode = newUserCode()
      while (byUser.has(userCode)) userCode = newUserCode()
      const login: Login = {
        deviceCode: randomBytes(32).toString("base64url"),
        userCode,
        client,
        expiresAt: now + LOGIN_SECONDS * 1000,
        state: { _tag: "waiting" }
      }
      byDevice.set(login.deviceCode, login)
      byUser.set(login.userCode, login)
      return new DeviceLoginStarted({
        deviceCode: login.deviceCode,
        userCode,
        expiresInSeconds: LOGIN_SECONDS,
        intervalSeconds: POLL_SECONDS
      })
    }),

    poll: Effect.fn("DeviceAuthorization.poll")(function* (deviceCode: string) {
      const login = yield* find(byDevice, deviceCode)
      const state = login.state
      if (state._tag === "denied") return yield* denied
      if (state._tag !== "approved") return yield* pending
      // Spent: the token is handed out once.
      forget(login)
      const token = yield* dependencies.issue(state.user)
      return new DeviceLoginGranted({ token, userId: state.user.id, email: state.user.email })
    }),

    awaiting: Effect.fn("DeviceAuthorization.awaiting")(function* (
      userCode: string,
      client: string
    ) {
      return (yield* typedLogin(userCode, client)).userCode
    }),

    signIn: Effect.fn("DeviceAuthorization.signIn")(function* (
      userCode: string,
      email: string,
      password: Redacted.Redacted<string>,
      client: string
    ) {
      yield* typedLogin(userCode, client)
      const user = yield* dependencies.signIn(email, password, client)
      // Looked up again: the password check took time, the login may have moved on.
      const login = yield* awaitingLogin(userCode)
      const pageSession = randomBytes(32).toString("base64url")
      login.state = { _tag: "signedIn", user, pageSession }
      return new DeviceLoginSignedIn({
        userCode: login.userCode,
        email: user.email,
        pageSession: Redacted.make(pageSession),
        expiresAt: login.expiresAt
      })
    }),

    decide: Effect.fn("DeviceAuthorization.decide")(function* (
      userCode: string,
      pageSession: Redacted.Redacted<string>,
      decision: DeviceDecision
    ) {
      const login = yield* awaitingLogin(userCode)
      const state = login.state
      if (
        state._tag !== "signedIn" ||
        !sameSecret(state.pageSession, Redacted.value(pageSession))
      ) {
        return yield* staleSession
      }
      login.state =
        decision === "approve" ? { _tag: "approved", user: state.user } : { _tag: "denied" }
      return decision
    }),

    request: Effect.fn("DeviceAuthorization.request")(function* (userCode: string, client: string) {
      const login = yield* typedLogin(userCode, client)
      return new DeviceLoginRequest({
        userCode: login.userCode,
        client: login.client,
        startedAt: login.expiresAt - LOGIN_SECONDS * 1000,
        expiresAt: login.expiresAt
      })
    }),

    decideAs: Effect.fn("DeviceAuthorization.decideAs")(function* (
      userCode: string,
      user: DeviceLoginUser,
      decision: DeviceDecision,
      client: string
    ) {
      const login = yield* typedLogin(userCode, client)
      login.state = decision === "approve" ? { _tag: "approved", user } : { _tag: "denied" }
      return decision
    })
  })
}

export const DeviceAuthorizationLive = Layer.effect(
  DeviceAuthorization,
  Effect.gen(function* () {
    const sessions = yield* SessionTokens
    const passwords = yield* PasswordLogin
    // The token carries the session generation of the sign-in: a password changed before
    // the command line collects it ends that session too.
    return makeDeviceAuthorization({ signIn: passwords.login, issue: sessions.issue })
  })
)
