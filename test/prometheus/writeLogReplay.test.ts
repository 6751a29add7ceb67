/**
 * A remote write is acknowledged once the write log holds it; what the log still holds
 * when the service starts is stored then (the service stopped before its batch reached
 * the engine). Here the log is written as a stopped service would have left it: a whole
 * record and one cut short mid-append, which was never acknowledged.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import { installApp } from "../support/client.js"
import { Vector } from "../support/prometheusReplies.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { adminKeyOf, bodyOf, call, freshDataDir, startServer } from "../support/server.js"

const ADMIN = "replay-admin@example.com"
const PASSWORD = "replay admin password"
const T0 = 1_700_000_000_000
const BASE = "/metrics-compat/api/v1"

const sample = (name: string, value: number) =>
  remoteWriteBody([{ labels: { __name__: name, job: "replay" }, samples: [[T0, value]] }])

const logDirectory = (dataDir: string, cluster: string) =>
  path.join(dataDir, "metrics-log", cluster, "default")

describe("the metrics write log", () => {
  it.live(
    "a restart stores what the log held; a body cut short is dropped; a stop stores what it accepted",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("metrics-replay")
        const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }
        const { cluster, key } = yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
            const key = adminKeyOf(server)
            const written = yield* call(server, "POST", `${BASE}/write`, {
              token: key,
              rawBody: sample("written_before", 1),
              headers: REMOTE_WRITE_HEADERS
            })
            expect(written.status, written.text).toBe(204)
            const sql = Context.get(server.context, SqlClient.SqlClient)
            const [row] = yield* sql<{ id: string }>`select id from clusters where name = 'default'`
            // A query waits for the writes accepted before it.
            const answered = yield* call(
              server,
              "GET",
              `${BASE}/query?query=written_before&time=${T0 / 1000}`,
              {
                token: key
              }
            )
            expect(bodyOf(Vector, answered).data.result.map((r) => r.value[1])).toEqual(["1"])
            // Accepted just before the service stops: stored on the way out.
            const last = yield* call(server, "POST", `${BASE}/write`, {
              token: key,
              rawBody: sample("written_last", 2),
              headers: REMOTE_WRITE_HEADERS
            })
            expect(last.status, last.text).toBe(204)
            return { cluster: row!.id, key }
          })
        )

        // Stored, the writes left the log when the service stopped.
        expect(fs.readdirSync(logDirectory(dataDir, cluster))).toEqual([])
        // A segment as a stopped service leaves it: a whole record, then one cut short.
        const directory = logDirectory(dataDir, cluster)
        const record = (body: Uint8Array) => {
          const header = Buffer.alloc(4)
          header.writeUInt32LE(body.length)
          return Buffer.concat([header, body])
        }
        const cut = record(sample("cut_short", 7))
        fs.writeFileSync(
          path.join(directory, "000000000000001-000000000.wal"),
          Buffer.concat([record(sample("held_in_log", 42)), cut.subarray(0, cut.length - 9)])
        )

        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            const ask = (name: string) =>
              call(server, "GET", `${BASE}/query?query=${name}&time=${T0 / 1000}`, { token: key })
            const held = yield* ask("held_in_log")
            expect(bodyOf(Vector, held).data.result).toEqual([
              { metric: { __name__: "held_in_log", job: "replay" }, value: [T0 / 1000, "42"] }
            ])
            expect(bodyOf(Vector, yield* ask("cut_short")).data.result).toEqual([])
            expect(bodyOf(Vector, yield* ask("written_before")).data.result).toHaveLength(1)
            expect(bodyOf(Vector, yield* ask("written_last")).data.result).toHaveLength(1)
            expect(fs.readdirSync(directory)).toEqual([])
          })
        )
      }),
    120_000
  )

  it.live(
    "a replay of writes already stored leaves one copy of each sample, to plain SQL too",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("metrics-replay-stored")
        const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }
        const stored = remoteWriteBody([
          {
            labels: { __name__: "stored_twice", job: "replay" },
            samples: [
              [T0, 1],
              [T0 + 15_000, 2]
            ]
          }
        ])
        const { cluster, key } = yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
            const key = adminKeyOf(server)
            const written = yield* call(server, "POST", `${BASE}/write`, {
              token: key,
              rawBody: stored,
              headers: REMOTE_WRITE_HEADERS
            })
            expect(written.status, written.text).toBe(204)
            const sql = Context.get(server.context, SqlClient.SqlClient)
            const [row] = yield* sql<{ id: string }>`select id from clusters where name = 'default'`
            return { cluster: row!.id, key }
          })
        )
        // The log as a crash leaves it: the stored write's segment not yet deleted, and
        // after it a write holding one stored sample and one new.
        const directory = logDirectory(dataDir, cluster)
        expect(fs.readdirSync(directory)).toEqual([])
        const mixed = remoteWriteBody([
          {
            labels: { __name__: "stored_twice", job: "replay" },
            samples: [
              [T0 + 15_000, 2],
              [T0 + 30_000, 3]
            ]
          }
        ])
        const record = (body: Uint8Array) => {
          const header = Buffer.alloc(4)
          header.writeUInt32LE(body.length)
          return Buffer.concat([header, body])
        }
        fs.writeFileSync(
          path.join(directory, "000000000000001-000000000.wal"),
          Buffer.concat([record(stored), record(mixed)])
        )

        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir, env)
            // A query waits for the replayed writes to be stored.
            const range = yield* call(
              server,
              "GET",
              `${BASE}/query?query=${encodeURIComponent("count_over_time(stored_twice[1m])")}` +
                `&time=${(T0 + 30_000) / 1000}`,
              { token: key }
            )
            expect(bodyOf(Vector, range).data.result.map((r) => r.value[1])).toEqual(["3"])
            expect(fs.readdirSync(directory)).toEqual([])
            // Plain SQL, no FINAL and no merge: each sample once.
            const plain = yield* call(server, "POST", "/v1/query", {
              token: key,
              body: {
                sql: "SELECT toUnixTimestamp64Milli(timestamp) AS t, value FROM prometheus_samples ORDER BY t"
              }
            })
            expect(plain.status, plain.text).toBe(200)
            const rows = bodyOf(Schema.Struct({ data: Schema.Array(Schema.Unknown) }), plain).data
            expect(rows).toEqual([
              { t: String(T0), value: 1 },
              { t: String(T0 + 15_000), value: 2 },
              { t: String(T0 + 30_000), value: 3 }
            ])
          })
        )
      }),
    120_000
  )
})
