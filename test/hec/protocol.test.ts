/**
 * The collector's answers over HTTP (the collector's table of codes): every code the service gives,
 * with its status and text, `invalid-event-number` where an event is at fault, and a
 * refused request storing nothing. Also the auth forms, `/raw` and `/health`.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { count, events, installSplApp, post } from "../support/hec.js"
import { adminKeyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "hec-codes@example.com"
const PASSWORD = "hec codes password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const Token = Schema.Struct({ key: Schema.Struct({ token: Schema.String }) })

const answer = (reply: { readonly status: number; readonly json: unknown }) => ({
  status: reply.status,
  json: reply.json
})

/** Posts a request that must be refused with exactly `expected`, and stores nothing. */
const refused = (
  request: Effect.Effect<{ readonly status: number; readonly json: unknown }>,
  expected: { readonly status: number; readonly json: unknown }
) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const before = yield* count(server)
    expect(answer(yield* request)).toEqual(expected)
    expect(yield* count(server)).toBe(before)
  })

const OK = { status: 200, json: { text: "Success", code: 0 } }

layer(TestServer.layer(freshDataDir("hec-codes"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("HEC protocol answers", (it) => {
  it.effect("health before the app: healthy without a token, 404 with a key of the cluster", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const health = yield* call(server, "GET", "/services/collector/health")
      expect(answer(health)).toEqual({ status: 200, json: { text: "HEC is healthy", code: 17 } })
      const keyed = yield* call(server, "GET", "/services/collector/health", {
        headers: { authorization: `Splunk ${adminKeyOf(server)}` }
      })
      expect(keyed.status).toBe(404)
      expect(keyed.json).toMatchObject({ code: 404, text: expect.stringContaining("spl-app") })
      yield* installSplApp(server, ADMIN, PASSWORD)
    })
  )

  it.effect("the three auth forms and Bearer are accepted", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const key = adminKeyOf(server)
      const body = '{"event":"auth form","sourcetype":"auth"}'
      const basic = Buffer.from(`anyone:${key}`).toString("base64")
      for (const authorization of [`Splunk ${key}`, `Bearer ${key}`, `Basic ${basic}`]) {
        const reply = yield* post(server, "/services/collector/event", body, undefined, {
          authorization
        })
        expect(answer(reply)).toEqual(OK)
      }
      expect(yield* events(server, "_raw", "sourcetype = 'auth'")).toHaveLength(3)
    })
  )

  it.effect(
    "auth refusals: 2 (none), 3 (malformed), 4 (unknown), 16 (?token=), 1 (no insert)",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const key = adminKeyOf(server)
        const body = '{"event":"x"}'
        const path = "/services/collector/event"
        yield* refused(post(server, path, body, undefined), {
          status: 401,
          json: { text: "Token is required", code: 2 }
        })
        const malformed = { status: 401, json: { text: "Invalid authorization", code: 3 } }
        for (const authorization of [key, "Splunk", "Basic !!!", `Basic ${btoa("no colon")}`]) {
          yield* refused(post(server, path, body, undefined, { authorization }), malformed)
        }
        yield* refused(post(server, path, body, "rt_not_a_key"), {
          status: 403,
          json: { text: "Invalid token", code: 4 }
        })
        yield* refused(post(server, `${path}?token=${key}`, body, undefined), {
          status: 400,
          json: { text: "Query string authorization is not enabled", code: 16 }
        })
        yield* refused(post(server, `${path}?token=rt_not_a_key`, body, undefined), {
          status: 403,
          json: { text: "Invalid token", code: 4 }
        })
        const created = yield* call(server, "POST", "/v1/keys", {
          token: key,
          body: { name: "reader", permission: "read_only" }
        })
        const reader = Schema.decodeUnknownSync(Token)(created.json).key.token
        yield* refused(post(server, path, body, reader), {
          status: 403,
          json: { text: "Token disabled", code: 1 }
        })
      })
  )

  it.effect("body refusals name the event at fault; a refused batch stores none of it", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const key = adminKeyOf(server)
      const path = "/services/collector"
      const at = (code: number, text: string, n?: number) => ({
        status: 400,
        json: n === undefined ? { text, code } : { text, code, "invalid-event-number": n }
      })
      yield* refused(post(server, path, "", key), at(5, "No data"))
      yield* refused(post(server, path, "  \n", key), at(5, "No data"))
      yield* refused(
        post(server, path, '{"event":"good"}{"event":', key),
        at(6, "Invalid data format", 1)
      )
      yield* refused(post(server, path, "not json", key), at(6, "Invalid data format", 0))
      yield* refused(
        post(server, path, '{"event":"good"}\n{"time":1767225600}', key),
        at(12, "Event field is required", 1)
      )
      yield* refused(
        post(server, path, '[{"event":"good"},{"event":"good"},{"event":""}]', key),
        at(13, "Event field cannot be blank", 2)
      )
      yield* refused(
        post(server, path, '{"event":"good","fields":{"user":{"id":1}}}', key),
        at(15, "Error in handling indexed fields", 0)
      )
      yield* refused(
        post(server, path, '{"event":"good"} {"event":"good","time":"noon"}', key),
        at(15, "Error in handling indexed fields", 1)
      )
      yield* refused(
        post(server, path, '{"event":"good","index":"Bad Index"}', key),
        at(7, "Incorrect index", 0)
      )
      yield* refused(
        post(server, `${path}?database=nowhere`, '{"event":"good"}', key),
        at(7, "Incorrect index")
      )
      expect(yield* events(server, "_raw", "_raw = 'good'")).toEqual([])
    })
  )

  it.effect("ack is off: 400 code 14", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* post(
        server,
        "/services/collector/ack?channel=c1",
        '{"acks":[0]}',
        adminKeyOf(server)
      )
      expect(answer(reply)).toEqual({ status: 400, json: { text: "ACK is disabled", code: 14 } })
    })
  )

  it.effect("/raw and /raw/1.0: one event per line, metadata and time from the query", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const key = adminKeyOf(server)
      const query = "?host=r1&source=syslog.log&sourcetype=syslog&index=ops&time=1767225900.5"
      expect(
        answer(yield* post(server, `/services/collector/raw${query}`, "one\r\ntwo\n\n  \n", key))
      ).toEqual(OK)
      expect(
        answer(
          yield* post(
            server,
            "/services/collector/raw/1.0?sourcetype=syslog&time=1767225960",
            "three",
            key
          )
        )
      ).toEqual(OK)
      const rows = yield* events(
        server,
        "toString(_time) AS t, _raw, host, source, index",
        "sourcetype = 'syslog'"
      )
      expect(rows).toEqual([
        {
          t: "2026-01-01 00:05:00.500",
          _raw: "one",
          host: "r1",
          source: "syslog.log",
          index: "ops"
        },
        {
          t: "2026-01-01 00:05:00.500",
          _raw: "two",
          host: "r1",
          source: "syslog.log",
          index: "ops"
        },
        {
          t: "2026-01-01 00:06:00.000",
          _raw: "three",
          host: "127.0.0.1",
          source: "http:bootstrap admin",
          index: "main"
        }
      ])
      yield* refused(post(server, "/services/collector/raw?time=noon", "x", key), {
        status: 400,
        json: { text: "Error in handling indexed fields", code: 15 }
      })
      yield* refused(post(server, "/services/collector/raw", "\n\n", key), {
        status: 400,
        json: { text: "No data", code: 5 }
      })
    })
  )

  it.effect("health once installed, on both paths; ?token= is checked there (21)", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const healthy = { status: 200, json: { text: "HEC is healthy", code: 17 } }
      for (const path of ["/services/collector/health", "/services/collector/health/1.0"]) {
        expect(answer(yield* call(server, "GET", path))).toEqual(healthy)
        expect(answer(yield* call(server, "GET", `${path}?token=${adminKeyOf(server)}`))).toEqual(
          healthy
        )
      }
      const bad = yield* call(server, "GET", "/services/collector/health?token=rt_nope")
      expect(answer(bad)).toEqual({ status: 400, json: { text: "Invalid token", code: 21 } })
    })
  )
})
