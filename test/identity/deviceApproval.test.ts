/**
 * Command-line login approved by a user already signed in (what the console does): the
 * command line starts and polls; the user's session asks for the login by its code and
 * decides by JSON with its bearer token. Anything but a user's session is refused, and a
 * form posted by another site (no Authorization header) decides nothing.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import {
  DeviceLoginAwaiting,
  DeviceStartResponse,
  DeviceTokenResponse
} from "../../domain/api/DeviceLoginApi.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ADMIN = "approval-admin@example.com"
const PASSWORD = "approval admin password"
const CLI = { "x-service-client": "cli", "x-service-client-version": "0.1.0" }

const ErrorBody = Schema.Struct({ error: Schema.String, message: Schema.String })

const expectError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(ErrorBody, reply).error).toBe(error)
}

const start = Effect.flatMap(TestServer, (server) =>
  Effect.map(
    call(server, "POST", "/v1/auth/cli/device/start", { body: {}, headers: CLI }),
    (reply) => {
      expect(reply.status, reply.text).toBe(200)
      return bodyOf(DeviceStartResponse, reply)
    }
  )
)

const poll = (device_code: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/cli/device/token", { body: { device_code }, headers: CLI })
  )

const session = Effect.flatMap(TestServer, (server) =>
  Effect.map(
    call(server, "POST", "/v1/auth/login", { body: { email: ADMIN, password: PASSWORD } }),
    (reply) => (reply.json as { token: string }).token
  )
)

const pending = (userCode: string, token?: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "GET", `/v1/auth/cli/device/pending?user_code=${encodeURIComponent(userCode)}`, {
      ...(token === undefined ? {} : { token })
    })
  )

const approval = (body: unknown, token?: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/cli/device/approval", {
      body,
      ...(token === undefined ? {} : { token })
    })
  )

layer(
  TestServer.layer(freshDataDir("device-approval"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("device login approved by a signed-in session", (it) => {
  it.effect("shows the login awaiting approval, and an approval hands out the token", () =>
    Effect.gen(function* () {
      const started = yield* start
      const token = yield* session
      // The code as a person types it: lower case, no dash.
      const shown = yield* pending(started.user_code.replace("-", "").toLowerCase(), token)
      expect(shown.status, shown.text).toBe(200)
      const awaiting = bodyOf(DeviceLoginAwaiting, shown)
      expect(awaiting.user_code).toBe(started.user_code)
      expect(awaiting.client_address).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/)
      // The program as the start request named itself.
      expect([awaiting.client_name, awaiting.client_version]).toEqual(["cli", "0.1.0"])
      expect(awaiting.expires_in).toBeGreaterThan(590)
      expect(awaiting.expires_in).toBeLessThanOrEqual(600)
      expect(Math.abs(awaiting.started_at.epochMillis - Date.now())).toBeLessThan(60_000)

      expectError(yield* poll(started.device_code), 428, "authorization_pending")
      const approved = yield* approval({ user_code: started.user_code, decision: "approve" }, token)
      expect(approved.status, approved.text).toBe(200)
      expect(approved.json).toEqual({ decision: "approve" })

      const granted = yield* poll(started.device_code)
      expect(granted.status, granted.text).toBe(200)
      expect(bodyOf(DeviceTokenResponse, granted).email).toBe(ADMIN)
      // Spent: neither the poll nor the console finds it again.
      expectError(yield* poll(started.device_code), 400, "expired_token")
      expectError(yield* pending(started.user_code, token), 400, "expired_token")
    })
  )

  it.effect("a denial ends the login with access_denied", () =>
    Effect.gen(function* () {
      const started = yield* start
      const token = yield* session
      const denied = yield* approval({ user_code: started.user_code, decision: "deny" }, token)
      expect(denied.json).toEqual({ decision: "deny" })
      expectError(yield* poll(started.device_code), 400, "access_denied")
      expectError(
        yield* approval({ user_code: started.user_code, decision: "approve" }, token),
        400,
        "access_denied"
      )
    })
  )

  it.effect("only a user's session decides: no credential, an API key and forms are refused", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const started = yield* start
      const decision = { user_code: started.user_code, decision: "approve" }
      expectError(yield* pending(started.user_code), 401, "unauthorized")
      expectError(yield* approval(decision), 401, "unauthorized")
      const key = adminKeyOf(server)
      expectError(yield* pending(started.user_code, key), 403, "forbidden")
      expectError(yield* approval(decision, key), 403, "forbidden")
      // What another site's form can send: fields, no Authorization header.
      const form = yield* call(server, "POST", "/v1/auth/cli/device/approval", {
        rawBody: `user_code=${started.user_code}&decision=approve`,
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })
      expect(form.status).toBe(401)
      const token = yield* session
      expectError(
        yield* approval({ user_code: started.user_code, decision: "maybe" }, token),
        400,
        "bad_request"
      )
      expectError(
        yield* approval({ user_code: "BBBB-BBBB", decision: "approve" }, token),
        400,
        "expired_token"
      )
      expectError(yield* poll(started.device_code), 428, "authorization_pending")
    })
  )
})
