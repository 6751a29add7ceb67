/**
 * Guessing is slowed down over HTTP: password sign-ins (the API's and the device login
 * page's) per account and per client address, device-login starts per address, and user
 * codes typed on the approval page. Every client here is 127.0.0.1, and `X-Forwarded-For`
 * does not change that (no trusted proxy is configured). The counting on the clock:
 * `attemptLimiter.test.ts` and `deviceAuthorization.test.ts`.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { DeviceStartResponse } from "../../domain/api/DeviceLoginApi.js"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ADMIN = "throttle-admin@example.com"
const PASSWORD = "throttle admin password"
const PUBLIC_URL = "https://sluice.example.com"

const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  hint: Schema.String
})

const login = (email: string, password: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/login", { body: { email, password }, headers })
  )

const form = (path: string, fields: Record<string, string>) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", path, {
      rawBody: new URLSearchParams(fields).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
  )

const startDeviceLogin = (headers: Record<string, string> = {}) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/cli/device/start", { body: {}, headers })
  )

const expectSlowDown = (reply: Reply, maxSeconds: number) => {
  expect(reply.status, reply.text).toBe(429)
  const retryAfter = Number(reply.headers.get("retry-after"))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds)
}

layer(
  TestServer.layer(freshDataDir("throttling"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD,
    SLUICE_PUBLIC_URL: `${PUBLIC_URL}/`
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("throttling", (it) => {
  it.effect("device logins link to SLUICE_PUBLIC_URL, whatever host the request names", () =>
    Effect.gen(function* () {
      const reply = yield* startDeviceLogin({ "x-forwarded-host": "attacker.example" })
      expect(reply.status, reply.text).toBe(200)
      const started = bodyOf(DeviceStartResponse, reply)
      expect(started.verification_uri).toBe(`${PUBLIC_URL}/v1/auth/cli/device`)
      expect(started.verification_uri_complete).toBe(
        `${PUBLIC_URL}/v1/auth/cli/device?user_code=${started.user_code}`
      )
    })
  )

  it.effect(
    "failed sign-ins are limited per account, then per address, the device page's too",
    () =>
      Effect.gen(function* () {
        const started = bodyOf(DeviceStartResponse, yield* startDeviceLogin())
        for (let i = 0; i < 10; i++) {
          const wrong = yield* login(ADMIN, `wrong password ${i}`)
          expect(wrong.status, wrong.text).toBe(401)
        }
        // The eleventh is refused before any password is checked: the right one too, and on
        // the device login page.
        expectSlowDown(yield* login(ADMIN, "wrong password 10"), 900)
        const right = yield* login(ADMIN.toUpperCase(), PASSWORD)
        expectSlowDown(right, 900)
        expect(bodyOf(ErrorBody, right)).toMatchObject({ error: "too_many_requests" })
        const page = yield* form("/v1/auth/cli/device", {
          user_code: started.user_code,
          email: ADMIN,
          password: PASSWORD
        })
        expectSlowDown(page, 900)
        expect(page.text).toContain("Too many failed sign-ins")

        // Other accounts from the same address: 30 failures in all, then every sign-in waits,
        // whatever X-Forwarded-For claims.
        for (let i = 0; i < 20; i++) {
          const wrong = yield* login(`nobody-${i}@example.com`, "a wrong password", {
            "x-forwarded-for": `198.51.100.${i}`
          })
          expect(wrong.status, wrong.text).toBe(401)
        }
        expectSlowDown(
          yield* login("somebody@example.com", "a wrong password", {
            "x-forwarded-for": "203.0.113.77"
          }),
          900
        )
      })
  )

  it.effect("one address starts 20 device logins in ten minutes, then gets a 429", () =>
    Effect.gen(function* () {
      // Two were started by the tests before.
      for (let i = 2; i < 20; i++) {
        const reply = yield* startDeviceLogin({ "x-forwarded-for": `198.51.100.${i}` })
        expect(reply.status, reply.text).toBe(200)
      }
      const refused = yield* startDeviceLogin({ "x-forwarded-for": "203.0.113.1" })
      expectSlowDown(refused, 600)
      expect(bodyOf(ErrorBody, refused).error).toBe("too_many_requests")
    })
  )

  it.effect("user codes guessed on the approval page are answered 429 after ten misses", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      for (const guess of ["BCDF-GHJK", "BCDF-GHJL", "BCDF-GHJM", "BCDF-GHJN", "BCDF-GHJP"]) {
        const page = yield* call(server, "GET", `/v1/auth/cli/device?user_code=${guess}`)
        expect(page.status).toBe(400)
        const signIn = yield* form("/v1/auth/cli/device", {
          user_code: guess,
          email: ADMIN,
          password: PASSWORD
        })
        expect(signIn.status).toBe(400)
      }
      const page = yield* call(server, "GET", "/v1/auth/cli/device?user_code=BCDF-GHJQ")
      expectSlowDown(page, 600)
      expect(page.headers.get("content-type")).toMatch(/^text\/html/)
      expect(page.text).toContain("Too many unknown login codes")
    })
  )
})
