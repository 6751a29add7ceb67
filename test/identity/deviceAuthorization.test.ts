/**
 * The device flow's rules on the clock (`makeDeviceAuthorization` under `TestClock`): a
 * login lives ten minutes, an approved one hands out its token once, a denied one stays
 * denied, and a decision needs the page session of the latest sign-in. The sign-in and
 * the token issuer are stand-ins; the HTTP suite (`deviceLogin.test.ts`) runs the real ones.
 * Every rule holds with the logins and limits in memory and in the control plane (PGlite),
 * where the service keeps them for all its nodes.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it, layer } from "@effect/vitest"
import type { Vitest } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Redacted, TestClock } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { UserCaller } from "../../domain/Identity.js"
import { UserId } from "../../domain/Ids.js"
import {
  makeDeviceAuthorization,
  normalizeUserCode
} from "../../src/identity/DeviceAuthorizationLive.js"
import { escapeHtml } from "../../src/identity/DeviceLoginPage.js"
import { makeAttemptLimiter, makeSqlAttemptLimiter } from "../../src/identity/AttemptLimiter.js"
import type { AttemptLimiter, Refusal } from "../../src/identity/AttemptLimiter.js"
import { memoryDeviceLogins, sqlDeviceLogins } from "../../src/identity/DeviceLogins.js"
import type { DeviceLoginStore } from "../../src/identity/DeviceLogins.js"
import * as ControlPlaneSql from "../../src/store/ControlPlaneSql.js"

const ALICE = {
  id: UserId.make("6f1c2a52-0d5c-4e8e-9c43-0a1f7d3e2b11"),
  email: "alice@example.com",
  session_generation: 0
}
const BOB = {
  id: UserId.make("9b0e4f0a-3c2d-4b6a-8e1f-5d7c9a2b4e60"),
  email: "bob@example.com",
  session_generation: 0
}
const PASSWORD = "right"
const CLIENT = "192.0.2.1"
const OTHER_CLIENT = "2001:db8::/64"

/** Where a test's flow keeps its logins and counts its limits, empty at its start. */
class Backing extends Context.Tag("test/Backing")<
  Backing,
  Effect.Effect<{
    readonly logins: DeviceLoginStore
    readonly limiter: (name: string, refused: Refusal) => AttemptLimiter
  }>
>() {}

const inMemory = Layer.succeed(
  Backing,
  Effect.sync(() => ({
    logins: memoryDeviceLogins(),
    limiter: (_: string, refused: Refusal) => makeAttemptLimiter(refused)
  }))
)

const inControlPlane = Layer.effect(
  Backing,
  Effect.map(SqlClient.SqlClient, (sql) =>
    Effect.orDie(
      Effect.zipRight(
        sql`DELETE FROM device_logins`.pipe(Effect.zipRight(sql`DELETE FROM attempt_windows`)),
        Effect.succeed({
          logins: sqlDeviceLogins(sql),
          limiter: (name: string, refused: Refusal) => makeSqlAttemptLimiter(sql, name, refused)
        })
      )
    )
  )
).pipe(Layer.provide(ControlPlaneSql.inMemory))

const devices = Effect.flatMap(Backing, (fresh) =>
  Effect.map(fresh, (backing) =>
    makeDeviceAuthorization({
      signIn: (email, password) => {
        const user = [ALICE, BOB].find((u) => u.email === email)
        return user !== undefined && Redacted.value(password) === PASSWORD
          ? Effect.succeed(user)
          : Effect.fail(new Unauthorized({ message: "Wrong email or password." }))
      },
      issue: (user) => Effect.succeed(`session-of-${user.email}`),
      findUser: (id) => Effect.succeed(Option.fromNullable([ALICE, BOB].find((u) => u.id === id))),
      ...backing
    })
  )
)

const failure = <A, E extends { readonly _tag: string }>(effect: Effect.Effect<A, E>) =>
  Effect.map(Effect.exit(effect), (exit) =>
    Exit.match(exit, {
      onSuccess: () => "succeeded",
      onFailure: (cause) =>
        cause._tag === "Fail"
          ? "reason" in cause.error
            ? String(cause.error.reason)
            : cause.error._tag
          : "defect"
    })
  )

const password = Redacted.make(PASSWORD)

const rules = (it: Vitest.MethodsNonLive<Backing>) => {
  it.effect("a login approved before its ten minutes are up hands out one token", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      expect(started.expiresInSeconds).toBe(600)
      yield* TestClock.adjust("599 seconds")
      const signedIn = yield* flow.signIn(started.userCode, ALICE.email, password, CLIENT)
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("DeviceLoginPending")
      yield* flow.decide(started.userCode, signedIn.pageSession, "approve")
      const granted = yield* flow.poll(started.deviceCode)
      expect(granted).toMatchObject({
        token: "session-of-alice@example.com",
        userId: ALICE.id,
        email: ALICE.email
      })
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("expired_token")
    })
  )

  it.effect("a signed-in session approves without a page session; nothing else does", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      const session = new UserCaller({ userId: ALICE.id, email: ALICE.email, via: "session" })
      const oauth = new UserCaller({ userId: ALICE.id, email: ALICE.email, via: "oauth" })
      const gone = new UserCaller({
        userId: UserId.make("00000000-0000-4000-8000-000000000000"),
        email: "gone@example.com",
        via: "session"
      })
      for (const caller of [oauth, gone]) {
        expect(yield* failure(flow.request(started.userCode, caller, CLIENT))).toBe("Forbidden")
        expect(yield* failure(flow.decideAs(started.userCode, caller, "approve", CLIENT))).toBe(
          "Forbidden"
        )
      }
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("DeviceLoginPending")
      expect((yield* flow.request(started.userCode, session, CLIENT)).client).toBe(CLIENT)
      expect(yield* flow.decideAs(started.userCode, session, "approve", CLIENT)).toBe("approve")
      expect(yield* flow.poll(started.deviceCode)).toMatchObject({ email: ALICE.email })
    })
  )

  it.effect("at ten minutes the login has expired everywhere", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const waiting = yield* flow.start(CLIENT)
      const signedIn = yield* flow.start(CLIENT)
      const session = yield* flow.signIn(signedIn.userCode, BOB.email, password, CLIENT)
      yield* TestClock.adjust("600 seconds")
      expect(yield* failure(flow.poll(waiting.deviceCode))).toBe("expired_token")
      expect(yield* failure(flow.awaiting(waiting.userCode, CLIENT))).toBe("expired_token")
      expect(yield* failure(flow.signIn(waiting.userCode, ALICE.email, password, CLIENT))).toBe(
        "expired_token"
      )
      expect(yield* failure(flow.decide(signedIn.userCode, session.pageSession, "approve"))).toBe(
        "expired_token"
      )
      expect(yield* failure(flow.poll(signedIn.deviceCode))).toBe("expired_token")
    })
  )

  it.effect("an approved login not collected in time expires too", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      const session = yield* flow.signIn(started.userCode, ALICE.email, password, CLIENT)
      yield* flow.decide(started.userCode, session.pageSession, "approve")
      yield* TestClock.adjust("10 minutes")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("expired_token")
    })
  )

  it.effect("a denied login stays denied and cannot be signed in to again", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      const session = yield* flow.signIn(started.userCode, ALICE.email, password, CLIENT)
      expect(yield* flow.decide(started.userCode, session.pageSession, "deny")).toBe("deny")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("access_denied")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("access_denied")
      expect(yield* failure(flow.signIn(started.userCode, ALICE.email, password, CLIENT))).toBe(
        "access_denied"
      )
      expect(yield* failure(flow.decide(started.userCode, session.pageSession, "approve"))).toBe(
        "access_denied"
      )
    })
  )

  it.effect("a decision needs the page session of the latest sign-in", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      expect(
        yield* failure(flow.signIn(started.userCode, ALICE.email, Redacted.make("no"), CLIENT))
      ).toBe("Unauthorized")
      const alice = yield* flow.signIn(started.userCode, ALICE.email, password, CLIENT)
      const bob = yield* flow.signIn(started.userCode, BOB.email, password, CLIENT)
      expect(yield* failure(flow.decide(started.userCode, alice.pageSession, "approve"))).toBe(
        "Unauthorized"
      )
      expect(yield* failure(flow.decide(started.userCode, Redacted.make("guess"), "approve"))).toBe(
        "Unauthorized"
      )
      yield* flow.decide(started.userCode, bob.pageSession, "approve")
      expect((yield* flow.poll(started.deviceCode)).email).toBe(BOB.email)
    })
  )

  it.effect("user codes are found however they are typed", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(CLIENT)
      const [head, tail] = started.userCode.split("-")
      for (const typed of [
        started.userCode,
        `${head}${tail}`.toLowerCase(),
        ` ${head} ${tail} `,
        `${head}_${tail}`.toLowerCase()
      ]) {
        expect(yield* flow.awaiting(typed, CLIENT)).toBe(started.userCode)
      }
      expect(yield* failure(flow.awaiting(`${head}-${tail}X`, CLIENT))).toBe("expired_token")
      expect(yield* failure(flow.awaiting("", CLIENT))).toBe("expired_token")
    })
  )

  it.effect("starts are limited per client address, not from one pool anyone can drain", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      let started = 0
      while (started < 100 && Exit.isSuccess(yield* Effect.exit(flow.start(CLIENT)))) started++
      expect(started).toBe(20)
      const refused = yield* Effect.flip(flow.start(CLIENT))
      expect(refused).toMatchObject({ _tag: "TooManyRequests", retryAfterSeconds: 600 })
      // Another client is not held back by the first one's starts.
      const elsewhere = yield* flow.start(OTHER_CLIENT)
      expect(yield* flow.awaiting(elsewhere.userCode, OTHER_CLIENT)).toBe(elsewhere.userCode)
      yield* TestClock.adjust("599 seconds")
      expect(yield* failure(flow.start(CLIENT))).toBe("TooManyRequests")
      yield* TestClock.adjust("1 second")
      yield* flow.start(CLIENT)
    })
  )

  it.effect("user codes not found are limited per address; found ones are not", () =>
    Effect.gen(function* () {
      const flow = yield* devices
      const started = yield* flow.start(OTHER_CLIENT)
      for (let i = 0; i < 30; i++) yield* flow.awaiting(started.userCode, CLIENT)
      for (let i = 0; i < 10; i++) {
        expect(yield* failure(flow.awaiting(`BCDF-GHJ${"KLMNPQRSTV"[i]}`, CLIENT))).toBe(
          "expired_token"
        )
      }
      // The guesser is held back, the right code included, on the page and its sign-in form.
      const refused = yield* Effect.flip(flow.awaiting(started.userCode, CLIENT))
      expect(refused).toMatchObject({ _tag: "TooManyRequests", retryAfterSeconds: 600 })
      expect(yield* failure(flow.signIn(started.userCode, ALICE.email, password, CLIENT))).toBe(
        "TooManyRequests"
      )
      // Not whoever types from elsewhere.
      yield* flow.signIn(started.userCode, ALICE.email, password, OTHER_CLIENT)
      yield* TestClock.adjust("600 seconds")
      const later = yield* flow.start(OTHER_CLIENT)
      expect(yield* flow.awaiting(later.userCode, CLIENT)).toBe(later.userCode)
    })
  )
}

layer(inMemory)("device authorization, in memory", rules)
layer(inControlPlane, { timeout: 60_000 })("device authorization, in the control plane", rules)

describe("device authorization", () => {
  it("codes normalise to XXXX-XXXX; HTML is escaped", () => {
    expect(normalizeUserCode("bcdf ghjk")).toBe("BCDF-GHJK")
    expect(normalizeUserCode("BCDF-GHJKL")).toBe("")
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
    )
  })
})
