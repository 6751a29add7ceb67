/**
 * What SQL must see after the telemetry of `otel.ts` was exported: exact counts, ids,
 * attribute values and nanosecond times, per signal. Shared by the OTLP/HTTP and
 * OTLP/gRPC suites so that both transports are held to the same rows.
 */
import { expect } from "@effect/vitest"
import { Effect } from "effect"
import { query } from "./otel.js"
import { endOf, nanos, spanIdOf, startOf, traceIdOf } from "./otelData.js"
import type { RunningServer } from "./server.js"

const inBatch = (batch: number) => `startsWith(TraceId, '${traceIdOf(batch, 0).slice(0, 16)}')`

/** The spans of `spans(batch, count)` in `table`, field by field. */
export const expectSpans = (
  server: RunningServer,
  table: string,
  batch: number,
  count: number,
  database?: string
) =>
  Effect.gen(function* () {
    const rows = yield* query(
      server,
      `SELECT TraceId, SpanId, ParentSpanId, SpanName, SpanKind, ServiceName,
              ResourceAttributes['host.name'] AS host, ScopeName, ScopeVersion,
              SpanAttributes['http.method'] AS method,
              SpanAttributes['http.status_code'] AS status,
              SpanAttributes['item.index'] AS idx,
              toString(toUnixTimestamp64Nano(Timestamp)) AS start, toString(Duration) AS duration,
              StatusCode, StatusMessage, Events.Name AS events,
              arrayMap(t -> toString(toUnixTimestamp64Nano(t)), Events.Timestamp) AS eventTimes,
              Links.TraceId AS links
         FROM ${table} WHERE ${inBatch(batch)} ORDER BY SpanId`,
      database
    )
    expect(rows.length).toBe(count)
    rows.forEach((row, i) => {
      const start = startOf(i)
      expect(row).toEqual({
        TraceId: traceIdOf(batch, i),
        SpanId: spanIdOf(batch, i),
        ParentSpanId: i % 2 === 1 ? spanIdOf(batch, i - 1) : "",
        SpanName: `GET /items/${i}`,
        SpanKind: "Server",
        ServiceName: "checkout",
        host: "test-host-1",
        ScopeName: "sluice-tests",
        ScopeVersion: "1.2.3",
        method: "GET",
        status: String(200 + (i % 3)),
        idx: String(i),
        start: nanos(start),
        duration: String(endOf(i)[1] - start[1]),
        StatusCode: i % 5 === 4 ? "Error" : "Ok",
        StatusMessage: i % 5 === 4 ? `failed ${i}` : "",
        events: ["cache.miss"],
        eventTimes: [nanos([start[0], 500_000_001])],
        links: i === 0 ? [traceIdOf(batch + 1000, 0)] : []
      })
    })
  })

/** The records of `logRecords(batch, count)` in `table`. */
export const expectLogs = (
  server: RunningServer,
  table: string,
  batch: number,
  count: number,
  database?: string
) =>
  Effect.gen(function* () {
    const rows = yield* query(
      server,
      `SELECT TraceId, SpanId, SeverityText, SeverityNumber, ServiceName, Body,
              LogAttributes['user.id'] AS user, ScopeName,
              toString(toUnixTimestamp64Nano(Timestamp)) AS time
         FROM ${table} WHERE ${inBatch(batch)} ORDER BY SpanId`,
      database
    )
    expect(rows.length).toBe(count)
    rows.forEach((row, i) => {
      expect(row).toEqual({
        TraceId: traceIdOf(batch, i),
        SpanId: spanIdOf(batch, i),
        SeverityText: i % 2 === 0 ? "INFO" : "ERROR",
        SeverityNumber: i % 2 === 0 ? 9 : 17,
        ServiceName: "checkout",
        Body: `log line ${i} of batch ${batch}`,
        user: `u${i}`,
        ScopeName: "sluice-tests",
        time: nanos(startOf(i))
      })
    })
  })

/** The points of `recordedMetrics()` under `table`'s sum, histogram and gauge tables. */
export const expectMetrics = (server: RunningServer, table: string, database?: string) =>
  Effect.gen(function* () {
    const sums = yield* query(
      server,
      `SELECT MetricName, Attributes['route'] AS route, Value, ServiceName
         FROM ${table}_sum ORDER BY route`,
      database
    )
    expect(sums).toEqual([
      { MetricName: "http.requests", route: "/a", Value: 3, ServiceName: "checkout" },
      { MetricName: "http.requests", route: "/b", Value: 4, ServiceName: "checkout" }
    ])
    const histograms = yield* query(
      server,
      `SELECT MetricName, toString(Count) AS count, Sum, Min, Max FROM ${table}_histogram`,
      database
    )
    expect(histograms).toEqual([
      { MetricName: "http.latency", count: "4", Sum: 556, Min: 1, Max: 500 }
    ])
    const gauges = yield* query(
      server,
      `SELECT MetricName, Attributes['queue'] AS queue, Value,
              toUnixTimestamp64Nano(TimeUnix) > 0 AS timed FROM ${table}_gauge`,
      database
    )
    expect(gauges).toEqual([{ MetricName: "queue.depth", queue: "jobs", Value: 42, timed: 1 }])
  })

/** Rows of `table` (0 when it does not exist). */
export const countOf = (server: RunningServer, table: string, database?: string) =>
  query(server, `EXISTS TABLE ${table}`, database).pipe(
    Effect.flatMap((rows) =>
      Number(rows[0]?.result) === 0
        ? Effect.succeed(0)
        : Effect.map(query(server, `SELECT count() AS c FROM ${table}`, database), (rows) =>
            Number(rows[0]?.c)
          )
    )
  )
