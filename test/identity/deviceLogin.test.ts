/**
 * Command-line login by the device flow, driven as the command line and a person at a
 * browser would: the command line starts and polls with `x-service-client: cli`; the
 * person opens `verification_uri_complete`, posts the sign-in form and the decision form
 * (plain `application/x-www-form-urlencoded`, as a browser sends them). Expiry on the
 * clock: `deviceAuthorization.test.ts`.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Schema } from "effect"
import { DeviceStartResponse, DeviceTokenResponse } from "../../domain/api/DeviceLoginApi.js"
import { clientOf } from "../support/client.js"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ADMIN = "device-admin@example.com"
const PASSWORD = "device admin password"
const CLI = { "x-service-client": "cli", "x-service-client-version": "2.3.0" }
const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  hint: Schema.String
})

/** What the command line sends. */
const cli = (path: string, body: unknown) =>
  Effect.flatMap(TestServer, (server) => call(server, "POST", path, { body, headers: CLI }))

const start = Effect.map(cli("/v1/auth/cli/device/start", {}), (reply) => {
  expect(reply.status, reply.text).toBe(200)
  return bodyOf(DeviceStartResponse, reply)
})

const poll = (deviceCode: string) => cli("/v1/auth/cli/device/token", { device_code: deviceCode })

/** What a browser does: a GET of a link, or a form post. */
const browse = (url: string) =>
  Effect.promise(async () => {
    const response = await fetch(url, { headers: { accept: "text/html" } })
    return { status: response.status, headers: response.headers, text: await response.text() }
  })
const submit = (path: string, fields: Record<string, string>) =>
  Effect.flatMap(TestServer, (server) =>
    Effect.promise(async () => {
      const response = await fetch(server.url + path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html" },
        body: new URLSearchParams(fields).toString()
      })
      return { status: response.status, headers: response.headers, text: await response.text() }
    })
  )

type Page = Effect.Effect.Success<ReturnType<typeof browse>>

const expectPage = (page: Page, status: number) => {
  expect(page.status, page.text).toBe(status)
  expect(page.headers.get("content-type")).toMatch(/^text\/html/)
  expect(page.text).toMatch(/^<!doctype html>/)
  // No framing (the approve button), no script, forms post back to sluice only.
  expect(page.headers.get("x-frame-options")).toBe("DENY")
  expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
  expect(page.headers.get("content-security-policy")).toContain("form-action 'self'")
  expect(page.text).not.toContain("<script")
}

const pageTokenOf = (page: Page) => {
  const found = /name="page_token" value="([^"]+)"/.exec(page.text)
  expect(found, page.text).not.toBeNull()
  return found![1]!
}

const expectError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(ErrorBody, reply)).toMatchObject({ error })
}

/** Opens the link, signs in and decides, as a person would. */
const decide = (started: DeviceStartResponse, decision: "approve" | "deny") =>
  Effect.gen(function* () {
    expectPage(yield* browse(started.verification_uri_complete), 200)
    const signedIn = yield* submit("/v1/auth/cli/device", {
      user_code: started.user_code,
      email: ADMIN,
      password: PASSWORD
    })
    expectPage(signedIn, 200)
    const decided = yield* submit("/v1/auth/cli/device/decision", {
      user_code: started.user_code,
      page_token: pageTokenOf(signedIn),
      decision
    })
    expectPage(decided, 200)
    return decided
  })

layer(
  TestServer.layer(freshDataDir("device-login"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("device login", (it) => {
  it.effect("the command line logs in once a signed-in user approves its code", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const started = yield* start
      expect(started.user_code).toMatch(USER_CODE)
      expect(started.device_code.length).toBeGreaterThanOrEqual(32)
      expect(started.verification_uri).toBe(`${server.url}/v1/auth/cli/device`)
      expect(started.verification_uri_complete).toBe(
        `${server.url}/v1/auth/cli/device?user_code=${started.user_code}`
      )
      expect(started.expires_in).toBe(600)
      expect(started.interval).toBe(5)
      // A forwarded host is a client's word unless SLUICE_TRUST_PROXY says a proxy set it.
      const forwarded = yield* call(server, "POST", "/v1/auth/cli/device/start", {
        body: {},
        headers: { ...CLI, "x-forwarded-host": "attacker.example", "x-forwarded-proto": "https" }
      })
      expect(bodyOf(DeviceStartResponse, forwarded).verification_uri).toBe(
        `${server.url}/v1/auth/cli/device`
      )

      expectError(yield* poll(started.device_code), 428, "authorization_pending")

      // The page shows the code and asks for email and password.
      const opened = yield* browse(started.verification_uri_complete)
      expectPage(opened, 200)
      expect(opened.text).toContain(started.user_code)
      expect(opened.text).toContain('name="email"')
      expect(opened.text).toContain('name="password"')
      expect(opened.headers.get("referrer-policy")).toBe("no-referrer")

      // A wrong password: the form again, with the message, and nothing to approve with.
      const wrong = yield* submit("/v1/auth/cli/device", {
        user_code: started.user_code,
        email: ADMIN,
        password: "not the password"
      })
      expectPage(wrong, 401)
      expect(wrong.text).toContain("Wrong email or password.")
      expect(wrong.text).not.toContain("page_token")

      // Signed in (the code typed in lower case, without the dash, works as well).
      const signedIn = yield* submit("/v1/auth/cli/device", {
        user_code: started.user_code.replace("-", "").toLowerCase(),
        email: ADMIN,
        password: PASSWORD
      })
      expectPage(signedIn, 200)
      expect(signedIn.text).toContain(started.user_code)
      expect(signedIn.text).toContain(ADMIN)
      expect(signedIn.text).toContain('value="approve"')
      expect(signedIn.text).toContain('value="deny"')
      // Which program asks, from where and when: what the user decides on.
      expect(signedIn.text).toMatch(
        /Requested by <strong>cli 2\.3\.0<\/strong> from [^<]+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/
      )
      const pageToken = pageTokenOf(signedIn)

      // Signed in is not approved.
      expectError(yield* poll(started.device_code), 428, "authorization_pending")

      // A decision form from elsewhere does not know the page's token.
      const forged = yield* submit("/v1/auth/cli/device/decision", {
        user_code: started.user_code,
        page_token: "forged",
        decision: "approve"
      })
      expectPage(forged, 401)
      expectError(yield* poll(started.device_code), 428, "authorization_pending")

      const approved = yield* submit("/v1/auth/cli/device/decision", {
        user_code: started.user_code,
        page_token: pageToken,
        decision: "approve"
      })
      expectPage(approved, 200)
      expect(approved.text).toContain("Login approved")

      const granted = yield* poll(started.device_code)
      expect(granted.status, granted.text).toBe(200)
      const credential = bodyOf(DeviceTokenResponse, granted)
      expect(credential.email).toBe(ADMIN)
      expect(credential.user_id).toMatch(UUID)

      // Once: the code is spent.
      expectError(yield* poll(started.device_code), 400, "expired_token")

      // The token is a user credential: organizations, and the user it names.
      const orgs = yield* call(server, "GET", "/v1/organizations", {
        token: credential.token,
        headers: CLI
      })
      expect(orgs.status, orgs.text).toBe(200)
      expect(orgs.json).toEqual({ organizations: [{ name: "default", role: "admin" }] })
      const members = yield* call(server, "GET", "/v1/organizations/default/members", {
        token: credential.token,
        headers: CLI
      })
      expect(members.json).toEqual({
        members: [{ user_id: credential.user_id, email: ADMIN, role: "admin" }]
      })
    })
  )

  it.effect("a denied login gets access_denied and cannot be approved after", () =>
    Effect.gen(function* () {
      const started = yield* start
      const denied = yield* decide(started, "deny")
      expect(denied.text).toContain("Login denied")
      expectError(yield* poll(started.device_code), 400, "access_denied")
      expectError(yield* poll(started.device_code), 400, "access_denied")
      // The link now says the login cannot be approved.
      const reopened = yield* browse(started.verification_uri_complete)
      expectPage(reopened, 400)
      expect(reopened.text).toContain("denied")
      const signIn = yield* submit("/v1/auth/cli/device", {
        user_code: started.user_code,
        email: ADMIN,
        password: PASSWORD
      })
      expectPage(signIn, 400)
      expect(signIn.text).not.toContain("page_token")
    })
  )

  it.effect("two logins at once stay apart", () =>
    Effect.gen(function* () {
      const first = yield* start
      const second = yield* start
      expect(second.user_code).not.toBe(first.user_code)
      expect(second.device_code).not.toBe(first.device_code)
      yield* decide(second, "approve")
      expectError(yield* poll(first.device_code), 428, "authorization_pending")
      expect((yield* poll(second.device_code)).status).toBe(200)
    })
  )

  it.effect("the typed client tells pending, denied, expired and refused polls apart", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const client = yield* clientOf(server)
      const started = yield* client.deviceLogin.start()
      const pollTyped = (device_code: string) =>
        Effect.either(client.deviceLogin.token({ payload: { device_code } }))
      const pending = yield* pollTyped(started.device_code)
      expect(Either.isLeft(pending) && pending.left._tag).toBe("DeviceLoginPending")
      yield* decide(started, "deny")
      const denied = yield* pollTyped(started.device_code)
      expect(Either.isLeft(denied) && denied.left).toMatchObject({
        _tag: "DeviceLoginEnded",
        reason: "access_denied"
      })
      const unknown = yield* pollTyped("no-such-code")
      expect(Either.isLeft(unknown) && unknown.left).toMatchObject({
        _tag: "DeviceLoginEnded",
        reason: "expired_token"
      })
    })
  )

  it.effect("everything the page shows from a request is escaped", () =>
    Effect.gen(function* () {
      const started = yield* start
      const hostile = `"><script>alert(1)</script><img src=x onerror='alert(2)'>@example.com`
      const page = yield* submit("/v1/auth/cli/device", {
        user_code: started.user_code,
        email: hostile,
        password: "wrong"
      })
      expectPage(page, 401)
      expect(page.text).not.toContain("<img")
      expect(page.text).toContain(
        'value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&#39;alert(2)&#39;&gt;@example.com"'
      )
      // A program naming itself in markup is shown as text once the user signs in.
      const server0 = yield* TestServer
      const named = yield* call(server0, "POST", "/v1/auth/cli/device/start", {
        body: {},
        headers: { "x-service-client": "<img src=x onerror=alert(3)>" }
      })
      const fromHostile = bodyOf(DeviceStartResponse, named)
      const decision = yield* submit("/v1/auth/cli/device", {
        user_code: fromHostile.user_code,
        email: ADMIN,
        password: PASSWORD
      })
      expectPage(decision, 200)
      expect(decision.text).not.toContain("<img")
      expect(decision.text).toContain("&lt;img src=x onerror=alert(3)&gt;")
      // A code with markup in it is no code: the page asks again and echoes nothing.
      const server = yield* TestServer
      const opened = yield* browse(
        `${server.url}/v1/auth/cli/device?user_code=${encodeURIComponent("<b>x</b>")}`
      )
      expectPage(opened, 400)
      expect(opened.text).not.toContain("<b>x")
    })
  )

  it.effect("the page without a code asks for one", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const page = yield* browse(`${server.url}/v1/auth/cli/device`)
      expectPage(page, 200)
      expect(page.text).toContain('name="user_code"')
      expect(page.text).toContain('method="get"')
    })
  )

  it.effect("bad polls and incomplete forms are refused in their shape", () =>
    Effect.gen(function* () {
      // The command line's JSON endpoint: the error body.
      expectError(yield* poll("not-a-device-code"), 400, "expired_token")
      expectError(yield* cli("/v1/auth/cli/device/token", {}), 400, "bad_request")
      expectError(yield* cli("/v1/auth/cli/device/token", { device_code: "" }), 400, "bad_request")
      expectError(yield* cli("/v1/auth/cli/device/token", { device_code: 7 }), 400, "bad_request")
      const truncated = yield* Effect.flatMap(TestServer, (server) =>
        call(server, "POST", "/v1/auth/cli/device/token", {
          rawBody: '{"device_code": "abc',
          headers: { ...CLI, "content-type": "application/json" }
        })
      )
      expectError(truncated, 400, "bad_request")
      expect(truncated.text).not.toMatch(/at .*\.(ts|js):\d+/)

      // The page's forms: a page that says what is missing, never JSON.
      const started = yield* start
      expectPage(yield* submit("/v1/auth/cli/device", { email: ADMIN, password: PASSWORD }), 400)
      const noPassword = yield* submit("/v1/auth/cli/device", {
        user_code: started.user_code,
        email: ADMIN
      })
      expectPage(noPassword, 400)
      expect(noPassword.text).toContain("Enter your email and password.")
      const unknownCode = yield* submit("/v1/auth/cli/device", {
        user_code: "BBBB-BBBB",
        email: ADMIN,
        password: PASSWORD
      })
      expectPage(unknownCode, 400)
      expect(unknownCode.text).not.toContain("page_token")
      for (const fields of [
        { user_code: started.user_code, decision: "approve" },
        { user_code: started.user_code, page_token: "x" },
        { user_code: started.user_code, page_token: "x", decision: "maybe" }
      ]) {
        expectPage(yield* submit("/v1/auth/cli/device/decision", fields), 400)
      }
      expectError(yield* poll(started.device_code), 428, "authorization_pending")
    })
  )

  it.effect("the forms read what browsers post, and answer anything else with a page", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const started = yield* start
      const post = (path: string, body: string, contentType: string) =>
        Effect.promise(async () => {
          const response = await fetch(server.url + path, {
            method: "POST",
            headers: { "content-type": contentType },
            body
          })
          return { status: response.status, headers: response.headers, text: await response.text() }
        })
      const fields = `user_code=${started.user_code}&email=${encodeURIComponent(ADMIN)}&password=x`
      for (const [body, contentType] of [
        [fields, "text/plain"],
        [
          JSON.stringify({ user_code: started.user_code, email: ADMIN, password: PASSWORD }),
          "application/json"
        ],
        [
          `--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--b--\r\n`,
          "multipart/form-data; boundary=b"
        ],
        ["[".repeat(20_000) + "]".repeat(20_000), "application/json"]
      ] as const) {
        const refused = yield* post("/v1/auth/cli/device", body, contentType)
        expectPage(refused, 415)
        expect(refused.text).toContain("application/x-www-form-urlencoded")
        expectPage(yield* post("/v1/auth/cli/device/decision", body, contentType), 415)
      }
      // A field sent twice: the first counts (a wrong password here, so a 401 page).
      const twice = yield* post(
        "/v1/auth/cli/device",
        `${fields}&email=other%40example.com`,
        "application/x-www-form-urlencoded; charset=UTF-8"
      )
      expectPage(twice, 401)
      expect(twice.text).toContain(`value="${ADMIN}"`)
      // An email no user can have (NUL, bad UTF-8) is a wrong sign-in like any other.
      for (const email of ["a%00b%40example.com", "a%ff%fe%40example.com"]) {
        const odd = yield* post(
          "/v1/auth/cli/device",
          `user_code=${started.user_code}&email=${email}&password=x`,
          "application/x-www-form-urlencoded"
        )
        expectPage(odd, 401)
      }
      const nulLogin = yield* call(server, "POST", "/v1/auth/login", {
        body: { email: "a\u0000b@example.com", password: PASSWORD },
        headers: CLI
      })
      expectError(nulLogin, 401, "unauthorized")
      // Malformed percent-encoding is read as far as it goes: the form is incomplete.
      expectPage(
        yield* post(
          "/v1/auth/cli/device/decision",
          "%zz=%%&decision",
          "application/x-www-form-urlencoded"
        ),
        400
      )
      expectError(yield* poll(started.device_code), 428, "authorization_pending")
    })
  )
})
