/**
 * `GET /v1/tables/{t}` for every kind of table: the columns a query can
 * name, with the engine's type names, and never `columns: []` for a table that has
 * columns. Schemaless records, the events layout (`spl_events`), a table an OTLP
 * transform filled, and the OTLP app's typed tables; each column listed is queryable.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TableName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import { installSplApp, post } from "../support/hec.js"
import { installOtlpApp, query } from "../support/otel.js"
import { adminKeyOf, call, freshDataDir, TestServer } from "../support/server.js"
import * as F from "../otlp/fixtures.js"
import { insert, insertOk } from "./helpers.js"

const ADMIN = "describe-admin@example.com"
const PASSWORD = "describe admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

interface Column {
  readonly name: string
  readonly type: string
}

const describeTable = (table: string) =>
  Effect.gen(function* () {
    const admin = yield* adminClientOf(yield* TestServer)
    const described = yield* admin.tables.describe({
      path: { table: TableName.make(table) },
      urlParams: {}
    })
    expect(described.table.columns).toEqual(described.columns)
    return described.columns
  }).pipe(Effect.orDie)

/** Every listed column, named in one SELECT, answers. */
const expectQueryable = (table: string, columns: ReadonlyArray<Column>) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const names = columns.map((c) => `\`${c.name}\``).join(", ")
    const rows = yield* query(server, `SELECT ${names} FROM ${table} LIMIT 1`)
    expect(Object.keys(rows[0] ?? {})).toEqual(columns.map((c) => c.name))
  })

const map = "Map(LowCardinality(String), String)"

layer(TestServer.layer(freshDataDir("describe"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("describe lists the columns of every kind of table", (it) => {
  it.effect("schemaless records: the dotted leaf paths, never the raw storage", () =>
    Effect.gen(function* () {
      yield* insertOk(yield* TestServer, "visits", [
        { request: { client: { geo: { country: "DE" } } }, ms: 12 },
        { request: { client: { geo: { country: "FR" } } }, ms: 40.5 }
      ])
      const columns = yield* describeTable("visits")
      expect(columns).toEqual([
        // An integer, then a double: one column of two types, read as Float64.
        { name: "ms", type: "Nullable(Float64)" },
        { name: "request.client.geo.country", type: "Nullable(String)" }
      ])
      yield* expectQueryable("visits", columns)
    })
  )

  it.effect("spl_events: the typed event columns, then the events' fields", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installSplApp(server, ADMIN, PASSWORD)
      const reply = yield* post(
        server,
        "/services/collector",
        JSON.stringify({
          time: 1767225600.5,
          host: "web-1",
          event: { message: "GET /items 500", status: 500 }
        }),
        adminKeyOf(server)
      )
      expect(reply.status, reply.text).toBe(200)
      const columns = yield* describeTable("spl_events")
      expect(columns).toEqual([
        { name: "_time", type: "DateTime64(3, 'UTC')" },
        { name: "_raw", type: "String" },
        { name: "host", type: "LowCardinality(String)" },
        { name: "source", type: "LowCardinality(String)" },
        { name: "sourcetype", type: "LowCardinality(String)" },
        { name: "index", type: "LowCardinality(String)" },
        { name: "message", type: "Nullable(String)" },
        { name: "status", type: "Nullable(Int64)" }
      ])
      yield* expectQueryable("spl_events", columns)
    })
  )

  it.effect("a table an OTLP transform filled: its OTLP/JSON names with their types", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* insert(
        server,
        "app_logs",
        JSON.stringify(F.logs()),
        { "content-type": "application/json" },
        "?transform=otlp-logs"
      )
      expect(reply.json, reply.text).toEqual({ inserted: 1 })
      const columns = yield* describeTable("app_logs")
      // fixtures.ts logRecord(), its resource and scope: times as strings, enums and
      // integer attributes as Int64.
      expect(columns).toEqual([
        { name: "attributes.user.id", type: "Nullable(Int64)" },
        { name: "body", type: "Nullable(String)" },
        { name: "eventName", type: "Nullable(String)" },
        { name: "flags", type: "Nullable(Int64)" },
        { name: "host.cpus", type: "Nullable(Int64)" },
        { name: "observedTimeUnixNano", type: "Nullable(String)" },
        { name: "scope.name", type: "Nullable(String)" },
        { name: "scope.version", type: "Nullable(String)" },
        { name: "service.name", type: "Nullable(String)" },
        { name: "severityNumber", type: "Nullable(Int64)" },
        { name: "severityText", type: "Nullable(String)" },
        { name: "spanId", type: "Nullable(String)" },
        { name: "timeUnixNano", type: "Nullable(String)" },
        { name: "traceId", type: "Nullable(String)" }
      ])
      yield* expectQueryable("app_logs", columns)
    })
  )

  it.effect("the OTLP app's typed tables: the exporter's physical columns", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installOtlpApp(server, ADMIN, PASSWORD)
      const token = adminKeyOf(server)
      for (const [path, body] of [
        ["/otlp/v1/logs", F.logs()],
        ["/otlp/v1/metrics", F.metrics()]
      ] as const) {
        const reply = yield* call(server, "POST", path, { token, body })
        expect(reply.status, reply.text).toBe(200)
      }
      const logs = yield* describeTable("logs")
      // OtlpTableDdl's LOGS_COLUMNS: the collector exporter's otel_logs.
      expect(logs).toEqual([
        { name: "Timestamp", type: "DateTime64(9)" },
        { name: "TimestampTime", type: "DateTime" },
        { name: "TraceId", type: "String" },
        { name: "SpanId", type: "String" },
        { name: "TraceFlags", type: "UInt8" },
        { name: "SeverityText", type: "LowCardinality(String)" },
        { name: "SeverityNumber", type: "UInt8" },
        { name: "ServiceName", type: "LowCardinality(String)" },
        { name: "Body", type: "String" },
        { name: "ResourceSchemaUrl", type: "LowCardinality(String)" },
        { name: "ResourceAttributes", type: map },
        { name: "ScopeSchemaUrl", type: "LowCardinality(String)" },
        { name: "ScopeName", type: "String" },
        { name: "ScopeVersion", type: "LowCardinality(String)" },
        { name: "ScopeAttributes", type: map },
        { name: "LogAttributes", type: map },
        { name: "EventName", type: "String" }
      ])
      yield* expectQueryable("logs", logs)
      const summary = yield* describeTable("metrics_summary")
      expect(summary.map((c) => c.name)).toEqual([
        "ResourceAttributes",
        "ResourceSchemaUrl",
        "ScopeName",
        "ScopeVersion",
        "ScopeAttributes",
        "ScopeDroppedAttrCount",
        "ScopeSchemaUrl",
        "ServiceName",
        "MetricName",
        "MetricDescription",
        "MetricUnit",
        "Attributes",
        "StartTimeUnix",
        "TimeUnix",
        "Count",
        "Sum",
        "ValueAtQuantiles.Quantile",
        "ValueAtQuantiles.Value",
        "Flags"
      ])
      yield* expectQueryable("metrics_summary", summary)
      const view = yield* describeTable("metrics")
      expect(view.length).toBe(14)
      yield* expectQueryable("metrics", view)
    })
  )
})
