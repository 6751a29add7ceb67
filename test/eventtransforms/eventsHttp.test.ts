/**
 * `cloud-logs` and `cloud-audit` inserts over HTTP against the real server: the payloads
 * as their sources send them, `{inserted: n}`, and SQL over the query API seeing one row
 * per event with the envelope, typed times and ids.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { TableName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import { auditEvent, controlMessage, subscription } from "./fixtures.js"
import { countOf, query } from "./http.js"

const post = (table: string, transform: string, body: string | Uint8Array, headers = {}) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/tables/${table}?transform=${transform}`, {
      token: adminKeyOf(server),
      rawBody: body,
      headers: { "content-type": "application/json", ...headers }
    })
  )

const events = [
  { id: "1001", timestamp: 1763771766000, message: "START RequestId: 42" },
  { id: "1002", timestamp: 1763771766250, message: '{"level":"error","latency_ms":87}' },
  { id: "1003", timestamp: 1763771767000, message: "END RequestId: 42" }
]

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "event transforms over HTTP",
  (it) => {
    describe("cloud-logs", () => {
      it.effect("a gzip subscription payload: one row per event, envelope fields, typed time", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* post(
            "lambda",
            "cloud-logs",
            gzipSync(JSON.stringify(subscription(events)))
          )
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toEqual({ inserted: 3 })
          const rows = yield* query(
            server,
            "SELECT id, logGroup, logStream, subscriptionFilters, toTypeName(timestamp) AS t, " +
              "toUnixTimestamp64Milli(timestamp) AS ms, message_json.latency_ms AS latency FROM lambda ORDER BY id"
          )
          expect(rows.map((r) => r.id)).toEqual(["1001", "1002", "1003"])
          expect(rows[1]).toMatchObject({
            logGroup: "/aws/lambda/checkout",
            logStream: "2026/11/22/[$LATEST]0123456789abcdef",
            subscriptionFilters: ["to-sluice"],
            ms: "1763771766250",
            latency: "87"
          })
          expect(String(rows[0]!.t)).toMatch(/DateTime64/)
        })
      )

      it.effect(
        "plain JSON, the cloudwatch-logs alias, and a control message inserting nothing",
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const plain = yield* post(
              "plain_logs",
              "cloudwatch-logs",
              JSON.stringify(subscription(events.slice(0, 1)))
            )
            expect(plain.json).toEqual({ inserted: 1 })
            const control = yield* post("plain_logs", "cloud-logs", JSON.stringify(controlMessage))
            expect(control.status, control.text).toBe(200)
            expect(control.json).toEqual({ inserted: 0 })
            expect(yield* countOf(server, "plain_logs")).toBe(1)
          })
      )

      it.effect("a payload that is not a subscription is a 400 and inserts nothing", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* post("never_made", "cloud-logs", JSON.stringify({ hello: 1 }))
          expect(reply.status).toBe(400)
          expect(reply.json).toMatchObject({ error: "bad_request" })
          expect(yield* countOf(server, "never_made")).toBe(0)
        })
      )
    })

    describe("cloud-audit", () => {
      it.effect(
        "a trail file {Records}: one row per event, eventTime a date-time, eventID kept",
        () =>
          Effect.gen(function* () {
            const server = yield* TestServer
            const file = {
              Records: [auditEvent("ev-1"), auditEvent("ev-2", "PutObject"), auditEvent("ev-3")]
            }
            const reply = yield* post("trail", "cloud-audit", gzipSync(JSON.stringify(file)), {
              "content-encoding": "gzip"
            })
            expect(reply.json, reply.text).toEqual({ inserted: 3 })
            const rows = yield* query(
              server,
              "SELECT eventName, count() AS n, uniqExact(eventID) AS ids FROM trail GROUP BY eventName ORDER BY eventName"
            )
            expect(rows).toEqual([
              { eventName: "GetObject", n: "2", ids: "2" },
              { eventName: "PutObject", n: "1", ids: "1" }
            ])
            const admin = yield* adminClientOf(server)
            const described = yield* admin.tables.describe({
              path: { table: TableName.make("trail") },
              urlParams: {}
            })
            const columns = described.table.columns
            expect(columns.find((c) => c.name === "eventTime")?.type).toMatch(
              /^(Nullable\()?DateTime/
            )
            expect(columns.find((c) => c.name === "requestParameters.bucketName")?.type).toMatch(
              /^(Nullable\()?String/
            )
          })
      )

      it.effect("a single event, the cloudtrail alias, and an insert token retried", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const body = JSON.stringify(auditEvent("solo"))
          const first = yield* post("single", "cloudtrail", body, { "idempotency-key": "audit-1" })
          expect(first.json).toEqual({ inserted: 1 })
          const retry = yield* post("single", "cloud-audit", body, { "idempotency-key": "audit-1" })
          expect(retry.json).toEqual({ inserted: 1 })
          expect(yield* query(server, "SELECT eventID FROM single")).toEqual([{ eventID: "solo" }])
        })
      )

      it.effect("an event that is not an object is a 400 naming it; nothing inserted", () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const reply = yield* post(
            "half",
            "cloud-audit",
            JSON.stringify({ Records: [auditEvent("x"), "y"] })
          )
          expect(reply.status).toBe(400)
          expect(reply.json).toMatchObject({ message: "Audit event 1 is not a JSON object." })
          expect(yield* countOf(server, "half")).toBe(0)
        })
      )
    })
  }
)
