/**
 * `DeviceAuthorization`: a login lives ten minutes, kept in the control plane
 * (`DeviceLogins`) so that every node sees it. Anyone may start one, so starts are limited
 * per client address, and the number waiting in all is bounded; user codes that are not
 * found count against the address that typed them, so codes cannot be guessed at speed
 * (RFC 8628 §5.1). The limits are counted for all nodes together (`AttemptLimiters`).
 * Time is the Effect `Clock`.
 */
import { randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import { Clock, Effect, Layer, Option, Redacted } from "effect"
import {
  DeviceAuthorization,
  DeviceLoginGranted,
  DeviceLoginRequest,
  DeviceLoginSignedIn,
  DeviceLoginStarted
} from "../../domain/DeviceAuthorization.js"
import type { DeviceDecision } from "../../domain/DeviceAuthorization.js"
import {
  DeviceLoginEnded,
  DeviceLoginPending,
  Forbidden,
  TooManyRequests,
  Unauthorized
} from "../../domain/Errors.js"
import type { UserCaller } from "../../domain/Identity.js"
import type { UserId } from "../../domain/Ids.js"
import { AttemptLimiters, makeAttemptLimiter } from "./AttemptLimiter.js"
import type { AttemptLimit, AttemptLimiter, Refusal } from "./AttemptLimiter.js"
import { DeviceLogins, digest, memoryDeviceLogins } from "./DeviceLogins.js"
import type { ClientSoftware, DeviceLoginStore, LoginUser, StoredLogin } from "./DeviceLogins.js"
import { PasswordLogin } from "./PasswordLogin.js"
import { SessionTokens } from "./SessionTokens.js"
import { UsersRepo } from "./UsersRepo.js"

export const LOGIN_SECONDS = 600
export const POLL_SECONDS = 5
const MAX_WAITING = 100_000

/** What a signed-in user is shown of a login before deciding on it. */
const requestOf = (login: StoredLogin) =>
  new DeviceLoginRequest({
    userCode: login.userCode,
    client: login.client,
    clientName: login.software?.name ?? null,
    clientVersion: login.software?.version ?? null,
    startedAt: login.expiresAt - LOGIN_SECONDS * 1000,
    expiresAt: login.expiresAt
  })
/** Logins one client address may start in a window (one lives ten minutes). */
export const START_LIMIT: AttemptLimit = { attempts: 20, windowSeconds: LOGIN_SECONDS }
/** Unknown or expired user codes one client address may type in a window. */
export const CODE_LIMIT: AttemptLimit = { attempts: 10, windowSeconds: LOGIN_SECONDS }
// RFC 8628 §6.1: consonants only (no words), none that read alike; 20^8 codes.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ"

type User = LoginUser

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

/** The states a login is still waiting for a decision in. */
const SIGNABLE = { tags: ["waiting", "signedIn"] } as const

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
const notASession = new Forbidden({
  message: "Approving a command-line login needs a signed-in user's session.",
  hint: "Sign in to the console (or POST /v1/auth/login) and decide there."
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

/**
 * The device flow over a sign-in, a token issuer and the accounts (the live ones, or a
 * test's), its logins kept in `logins` and its limits counted by `limiter`'s (both in memory
 * unless given).
 */
export const makeDeviceAuthorization = (dependencies: {
  readonly signIn: (
    email: string,
    password: Redacted.Redacted<string>,
    client: string
  ) => Effect.Effect<User, Unauthorized | TooManyRequests>
  readonly issue: (user: User) => Effect.Effect<string>
  /** The account as it is now (its session generation), if it still exists. */
  readonly findUser: (id: UserId) => Effect.Effect<Option.Option<User>>
  readonly logins?: DeviceLoginStore
  readonly limiter?: (name: string, refused: Refusal) => AttemptLimiter
}) => {
  const limiter =
    dependencies.limiter ?? ((_: string, refused: Refusal) => makeAttemptLimiter(refused))
  const starts = limiter("device-login-start", tooManyStarts)
  const guesses = limiter("device-login-code", tooManyCodes)
  const logins = dependencies.logins ?? memoryDeviceLogins()
  /** The account `caller`'s session stands for, as it is now: only a sluice session approves. */
  const approver = (caller: UserCaller) =>
    Effect.gen(function* () {
      if (caller.via !== "session") return yield* notASession
      const user = yield* dependencies.findUser(caller.userId)
      if (Option.isNone(user)) return yield* notASession
      return user.value
    })
  /** The live login `lookup` finds, forgetting it once expired. */
  const find = (lookup: Effect.Effect<Option.Option<StoredLogin>>) =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const found = yield* lookup
      if (Option.isNone(found)) return yield* expired
      if (found.value.expiresAt <= now) {
        yield* logins.remove(found.value.deviceCodeHash)
        return yield* expired
      }
      return found.value
    })
  const awaitingLogin = (userCode: string) =>
    Effect.flatMap(find(logins.byUser(normalizeUserCode(userCode))), (login) =>
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
    start: Effect.fn("DeviceAuthorization.start")(function* (
      client: string,
      software?: ClientSoftware
    ) {
      yield* starts.take([[`address:${client}`, START_LIMIT]])
      const now = yield* Clock.currentTimeMillis
      if ((yield* logins.sweep(now)) >= MAX_WAITING) return yield* tooMany
      const deviceCode = randomBytes(32).toString("base64url")
      let userCode = newUserCode()
      const add = (code: string) =>
        logins.add({
          deviceCodeHash: digest(deviceCode),
          userCode: code,
          client,
          software: software ?? null,
          expiresAt: now + LOGIN_SECONDS * 1000,
          state: { _tag: "waiting" }
        })
      while (!(yield* add(userCode))) userCode = newUserCode()
      return new DeviceLoginStarted({
        deviceCode,
        userCode,
        expiresInSeconds: LOGIN_SECONDS,
        intervalSeconds: POLL_SECONDS
      })
    }),

    poll: Effect.fn("DeviceAuthorization.poll")(function* (deviceCode: string) {
      const login = yield* find(logins.byDevice(digest(deviceCode)))
      const state = login.state
      if (state._tag === "denied") return yield* denied
      if (state._tag !== "approved") return yield* pending
      // Spent: the token is handed out once, by the one poll that takes the login.
      const user = yield* logins.spend(login.deviceCodeHash)
      if (Option.isNone(user)) return yield* expired
      const token = yield* dependencies.issue(user.value)
      return new DeviceLoginGranted({ token, userId: user.value.id, email: user.value.email })
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
      const moved = yield* logins.move(login.userCode, SIGNABLE, {
        _tag: "signedIn",
        user,
        pageSessionHash: digest(pageSession)
      })
      if (!moved) return yield* awaitingLogin(userCode).pipe(Effect.zipRight(expired))
      return new DeviceLoginSignedIn({
        userCode: login.userCode,
        email: user.email,
        pageSession: Redacted.make(pageSession),
        expiresAt: login.expiresAt,
        request: requestOf(login)
      })
    }),

    decide: Effect.fn("DeviceAuthorization.decide")(function* (
      userCode: string,
      pageSession: Redacted.Redacted<string>,
      decision: DeviceDecision
    ) {
      const login = yield* awaitingLogin(userCode)
      const state = login.state
      const presented = digest(Redacted.value(pageSession))
      if (state._tag !== "signedIn" || !sameSecret(state.pageSessionHash, presented)) {
        return yield* staleSession
      }
      const moved = yield* logins.move(
        login.userCode,
        { tags: ["signedIn"], pageSessionHash: presented },
        decision === "approve" ? { _tag: "approved", user: state.user } : { _tag: "denied" }
      )
      if (!moved) return yield* staleSession
      return decision
    }),

    request: Effect.fn("DeviceAuthorization.request")(function* (
      userCode: string,
      caller: UserCaller,
      client: string
    ) {
      yield* approver(caller)
      return requestOf(yield* typedLogin(userCode, client))
    }),

    decideAs: Effect.fn("DeviceAuthorization.decideAs")(function* (
      userCode: string,
      caller: UserCaller,
      decision: DeviceDecision,
      client: string
    ) {
      const user = yield* approver(caller)
      const login = yield* typedLogin(userCode, client)
      const moved = yield* logins.move(
        login.userCode,
        SIGNABLE,
        decision === "approve" ? { _tag: "approved", user } : { _tag: "denied" }
      )
      if (!moved) return yield* awaitingLogin(userCode).pipe(Effect.zipRight(expired))
      return decision
    })
  })
}

export const DeviceAuthorizationLive = Layer.effect(
  DeviceAuthorization,
  Effect.gen(function* () {
    const sessions = yield* SessionTokens
    const passwords = yield* PasswordLogin
    const limiters = yield* AttemptLimiters
    // The token carries the session generation of the sign-in: a password changed before
    // the command line collects it ends that session too.
    const users = yield* UsersRepo
    return makeDeviceAuthorization({
      signIn: passwords.login,
      issue: sessions.issue,
      findUser: users.findById,
      logins: yield* DeviceLogins,
      limiter: limiters.make
    })
  })
)
