/**
 * The device flow's rules on the clock (`makeDeviceAuthorization` under `TestClock`): a
 * login lives ten minutes, an approved one hands out its token once, a denied one stays
 * denied, and a decision needs the page session of the latest sign-in. The sign-in and
 * the token issuer are stand-ins; the HTTP suite (`deviceLogin.test.ts`) runs the real ones.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Redacted, TestClock } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { UserId } from "../../domain/Ids.js"
import {
  makeDeviceAuthorization,
  normalizeUserCode
} from "../../src/identity/DeviceAuthorizationLive.js"
import { escapeHtml } from "../../src/identity/DeviceLoginPage.js"

const ALICE = {
  id: UserId.make("6f1c2a52-0d5c-4e8e-9c43-0a1f7d3e2b11"),
  email: "alice@example.com"
}
const BOB = { id: UserId.make("9b0e4f0a-3c2d-4b6a-8e1f-5d7c9a2b4e60"), email: "bob@example.com" }
const PASSWORD = "right"

const devices = () =>
  makeDeviceAuthorization({
    signIn: (email, password) => {
      const user = [ALICE, BOB].find((u) => u.email === email)
      return user !== undefined && Redacted.value(password) === PASSWORD
        ? Effect.succeed(user)
        : Effect.fail(new Unauthorized({ message: "Wrong email or password." }))
    },
    issue: (user) => Effect.succeed(`session-of-${user.email}`)
  })

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

describe("device authorization", () => {
  it.effect("a login approved before its ten minutes are up hands out one token", () =>
    Effect.gen(function* () {
      const flow = devices()
      const started = yield* flow.start()
      expect(started.expiresInSeconds).toBe(600)
      yield* TestClock.adjust("599 seconds")
      const signedIn = yield* flow.signIn(started.userCode, ALICE.email, password)
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

  it.effect("at ten minutes the login has expired everywhere", () =>
    Effect.gen(function* () {
      const flow = devices()
      const waiting = yield* flow.start()
      const signedIn = yield* flow.start()
      const session = yield* flow.signIn(signedIn.userCode, BOB.email, password)
      yield* TestClock.adjust("600 seconds")
      expect(yield* failure(flow.poll(waiting.deviceCode))).toBe("expired_token")
      expect(yield* failure(flow.awaiting(waiting.userCode))).toBe("expired_token")
      expect(yield* failure(flow.signIn(waiting.userCode, ALICE.email, password))).toBe(
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
      const flow = devices()
      const started = yield* flow.start()
      const session = yield* flow.signIn(started.userCode, ALICE.email, password)
      yield* flow.decide(started.userCode, session.pageSession, "approve")
      yield* TestClock.adjust("10 minutes")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("expired_token")
    })
  )

  it.effect("a denied login stays denied and cannot be signed in to again", () =>
    Effect.gen(function* () {
      const flow = devices()
      const started = yield* flow.start()
      const session = yield* flow.signIn(started.userCode, ALICE.email, password)
      expect(yield* flow.decide(started.userCode, session.pageSession, "deny")).toBe("deny")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("access_denied")
      expect(yield* failure(flow.poll(started.deviceCode))).toBe("access_denied")
      expect(yield* failure(flow.signIn(started.userCode, ALICE.email, password))).toBe(
        "access_denied"
      )
      expect(yield* failure(flow.decide(started.userCode, session.pageSession, "approve"))).toBe(
        "access_denied"
      )
    })
  )

  it.effect("a decision needs the page session of the latest sign-in", () =>
    Effect.gen(function* () {
      const flow = devices()
      const started = yield* flow.start()
      expect(yield* failure(flow.signIn(started.userCode, ALICE.email, Redacted.make("no")))).toBe(
        "Unauthorized"
      )
      const alice = yield* flow.signIn(started.userCode, ALICE.email, password)
      const bob = yield* flow.signIn(started.userCode, BOB.email, password)
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
      const flow = devices()
      const started = yield* flow.start()
      const [head, tail] = started.userCode.split("-")
      for (const typed of [
        started.userCode,
        `${head}${tail}`.toLowerCase(),
        ` ${head} ${tail} `,
        `${head}_${tail}`.toLowerCase()
      ]) {
        expect(yield* flow.awaiting(typed)).toBe(started.userCode)
      }
      expect(yield* failure(flow.awaiting(`${head}-${tail}X`))).toBe("expired_token")
      expect(yield* failure(flow.awaiting(""))).toBe("expired_token")
    })
  )

  it("codes normalise to XXXX-XXXX; HTML is escaped", () => {
    expect(normalizeUserCode("bcdf ghjk")).toBe("BCDF-GHJK")
    expect(normalizeUserCode("BCDF-GHJKL")).toBe("")
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
    )
  })
})
