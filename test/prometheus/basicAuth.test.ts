/**
 * The Prometheus API takes a cluster key as a Basic password, as promtool sends the URL's
 * user info (`http://x:<key>@host/metrics-compat`); elsewhere Basic is no credential.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ErrorBody } from "../../domain/Errors.js"
import { installApp } from "../support/client.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "basic-admin@example.com"
const PASSWORD = "basic admin password"
const QUERY = "/metrics-compat/api/v1/query?query=1&time=10"

const basic = (text: string) => `Basic ${Buffer.from(text).toString("base64")}`
const withAuthorization = (path: string, authorization: string) =>
  Effect.flatMap(TestServer, (server) => call(server, "GET", path, { headers: { authorization } }))

layer(
  TestServer.layer(freshDataDir("metrics-basic"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("Basic auth on the Prometheus API", (it) => {
  it.effect("the key as the Basic password, any user name, answers the query", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const reply = yield* withAuthorization(QUERY, basic(`x:${adminKeyOf(server)}`))
      expect(reply.status, reply.text).toBe(200)
      expect(reply.json).toEqual({
        status: "success",
        data: { resultType: "scalar", result: [10, "1"] }
      })
      // A password holding a colon keeps everything after the first one.
      const empty = yield* withAuthorization(QUERY, basic(`:${adminKeyOf(server)}`))
      expect(empty.status, empty.text).toBe(200)
    })
  )

  it.effect("a wrong, empty or malformed Basic credential is a 401 in sluice's shape", () =>
    Effect.gen(function* () {
      for (const authorization of [
        basic("x:rt_not_a_key"),
        basic("x:"),
        basic("no colon at all"),
        "Basic !!!not-base64!!!"
      ]) {
        const reply = yield* withAuthorization(QUERY, authorization)
        expect(reply.status, `${authorization}: ${reply.text}`).toBe(401)
        expect(bodyOf(ErrorBody, reply).error).toBe("unauthorized")
        expect(reply.text).not.toContain("rt_not_a_key")
      }
    })
  )

  it.effect("outside the Prometheus API a Basic header is no credential", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* withAuthorization("/v1/apps", basic(`x:${adminKeyOf(server)}`))
      expect(reply.status, reply.text).toBe(401)
      expect(bodyOf(ErrorBody, reply).error).toBe("unauthorized")
      const bearer = yield* call(server, "GET", "/v1/apps", { token: adminKeyOf(server) })
      // The same key as a bearer is past authentication (this endpoint then wants more).
      expect(bearer.status, bearer.text).not.toBe(401)
    })
  )
})
