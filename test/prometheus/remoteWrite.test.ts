/**
 * The metrics-app's remote write and Prometheus API on a composed server: samples kept
 * bit-exact (stale markers), out-of-order and retried writes, the app gate and key
 * permissions, bad bodies, and PromQL answers worked out by hand from Prometheus's rules.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Snappy from "snappyjs"
import { pushTimeseries } from "prometheus-remote-write"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { ErrorBody } from "../../domain/Errors.js"
import { installApp } from "../support/client.js"
import { endlessUpload } from "../support/endlessUpload.js"
import { eventually } from "../support/eventually.js"
import { sql as engineSql } from "../tables/helpers.js"
import { query } from "../support/otel.js"
import type { Reply } from "../support/server.js"
import {
  adminKeyOf,
  bodyOf,
  call,
  createDatabase,
  freshDataDir,
  TestServer
} from "../support/server.js"
import {
  REMOTE_WRITE_HEADERS,
  remoteWriteBody,
  STALE_MARKER,
  writeRequestBytes
} from "../support/remoteWrite.js"
import { Matrix, PromError, Strings, Vector } from "../support/prometheusReplies.js"

const ADMIN = "metrics-admin@example.com"
const PASSWORD = "metrics admin password"
const BASE = "/metrics-compat/api/v1"
const T0 = 1_700_000_000_000

const CreatedKey = Schema.Struct({ key: CreatedApiKey })

const gauge = { __name__: "rw_gauge", job: "test", instance: "a" }
const counter = { __name__: "rw_total", job: "test", instance: "a" }
const nan = { __name__: "rw_nan", job: "test" }

// Out of order on purpose: the newest gauge sample first.
const body = remoteWriteBody([
  {
    labels: gauge,
    samples: [
      [T0 + 30_000, 3],
      [T0, 1],
      [T0 + 15_000, 2],
      [T0 + 45_000, STALE_MARKER]
    ]
  },
  {
    labels: counter,
    samples: [
      [T0, 0],
      [T0 + 15_000, 15],
      [T0 + 30_000, 30],
      [T0 + 45_000, 45]
    ]
  },
  { labels: nan, samples: [[T0, NaN]] }
])

const write = (bytes: Uint8Array, token: string | undefined, headers = REMOTE_WRITE_HEADERS) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `${BASE}/write`, {
      ...(token === undefined ? {} : { token }),
      rawBody: bytes,
      headers
    })
  )

/** One sample of one series into `database`, with the admin key. */
const writeSample = (
  database: string,
  labels: Readonly<Record<string, string>>,
  at: number,
  value: number
) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `${BASE}/write?database=${database}`, {
      token: adminKeyOf(server),
      rawBody: remoteWriteBody([{ labels, samples: [[at, value]] }]),
      headers: REMOTE_WRITE_HEADERS
    })
  )

const get = (path: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "GET", `${BASE}${path}`, { token: adminKeyOf(server) })
  )

const expectSluiceError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(ErrorBody, reply).error).toBe(error)
  expect(reply.text).not.toMatch(/at .*\.ts|node_modules|\/work\//)
}

const expectPromError = (reply: Reply, status: number, errorType: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(PromError, reply).errorType).toBe(errorType)
}

const seconds = (ms: number) => ms / 1000
const q = encodeURIComponent

const dataDir = freshDataDir("metrics-rw")

layer(
  TestServer.layer(dataDir, {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  {
    excludeTestServices: true,
    timeout: 120_000
  }
)("metrics-app remote write and PromQL", (it) => {
  it.effect("before the app is installed: writes and queries are a 404 naming metrics-app", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const refused = yield* write(body, adminKeyOf(server))
      expectSluiceError(refused, 404, "not_found")
      expect(bodyOf(ErrorBody, refused).hint).toContain("PUT /v1/apps/metrics-app")
      expectSluiceError(yield* get(`/query?query=1`), 404, "not_found")
      // What Grafana asks besides queries is behind the same gate.
      for (const path of ["/rules", "/alerts", "/query_exemplars?query=up"])
        expectSluiceError(yield* get(path), 404, "not_found")
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
    })
  )

  it.effect("a write is 204; a retry of the same bytes changes no answer", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expect((yield* write(body, adminKeyOf(server))).status).toBe(204)
      expect((yield* write(body, adminKeyOf(server))).status).toBe(204)
      // (T0 - 20s, T0 + 40s] holds the gauge's samples at T0, +15 s and +30 s: three, once each.
      const counted = yield* get(
        `/query?query=${q("count_over_time(rw_gauge[1m])")}&time=${seconds(T0 + 40_000)}`
      )
      expect(bodyOf(Vector, counted).data.result).toEqual([
        { metric: { job: "test", instance: "a" }, value: [seconds(T0 + 40_000), "3"] }
      ])
    })
  )

  it.effect(
    "a deleted database takes its series along; one made again under its name starts empty",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = adminKeyOf(server)
        const series = { __name__: "rw_reborn", job: "reborn" }
        const writeTo = (value: number) => writeSample("reborn", series, T0, value)
        const valueNow = Effect.map(
          call(server, "GET", `${BASE}/query?query=rw_reborn&time=${seconds(T0)}&database=reborn`, {
            token
          }),
          (reply) => bodyOf(Vector, reply).data.result.map((r) => r.value[1])
        )
        yield* createDatabase(server, "reborn")
        expect((yield* writeTo(1)).status).toBe(204)
        expect(yield* valueNow).toEqual(["1"])
        const clusters = fs.readdirSync(path.join(dataDir, "metrics-log"))
        const logOf = (cluster: string) => path.join(dataDir, "metrics-log", cluster, "reborn")
        expect(clusters.some((cluster) => fs.existsSync(logOf(cluster)))).toBe(true)

        const deleted = yield* call(server, "DELETE", "/v1/databases/reborn", { token })
        expect(deleted.status, deleted.text).toBe(200)
        expect(clusters.some((cluster) => fs.existsSync(logOf(cluster)))).toBe(false)

        // The same series again: its series row is written anew, so the value is found.
        yield* createDatabase(server, "reborn")
        expect(yield* valueNow).toEqual([])
        expect((yield* writeTo(2)).status).toBe(204)
        expect(yield* valueNow).toEqual(["2"])
      })
  )

  it.effect(
    "samples kept between queries give way to a write into the window read, and to a change made elsewhere",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = adminKeyOf(server)
        const series = { __name__: "rw_kept", job: "kept" }
        const writeAt = (at: number, value: number) => writeSample("kept", series, at, value)
        // The newest sample at or before T0 + 10 s, read twice over the same window.
        const valueAt10s = Effect.map(
          call(
            server,
            "GET",
            `${BASE}/query?query=rw_kept&time=${seconds(T0 + 10_000)}&database=kept`,
            { token }
          ),
          (reply) => bodyOf(Vector, reply).data.result.map((r) => r.value[1])
        )
        yield* createDatabase(server, "kept")
        expect((yield* writeAt(T0, 1)).status).toBe(204)
        expect(yield* valueAt10s).toEqual(["1"])
        expect(yield* valueAt10s).toEqual(["1"])
        // Back-filled into the window already read: the next answer has it.
        expect((yield* writeAt(T0 + 5_000, 2)).status).toBe(204)
        expect(yield* valueAt10s).toEqual(["2"])
        // A sample this process did not write (another process, an operator's SQL) is
        // seen once the tables' parts are read again, within a second.
        yield* engineSql(
          server,
          "INSERT INTO prometheus_samples (id, time_ms, bits) " +
            `SELECT id, ${T0 + 8_000}, reinterpretAsUInt64(toFloat64(3)) ` +
            "FROM prometheus_series WHERE metric_name = 'rw_kept' LIMIT 1",
          "kept"
        )
        yield* eventually(
          "the sample written elsewhere",
          Effect.map(valueAt10s, (values) => (values[0] === "3" ? values : undefined))
        )
      })
  )

  it.effect("the stale marker is stored with its exact bits and hides the series", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const rows = yield* query(
        server,
        "SELECT hex(reinterpretAsUInt64(value)) AS bits FROM prometheus_samples " +
          "WHERE toUnixTimestamp64Milli(timestamp) = 1700000045000 AND isNaN(value) GROUP BY bits"
      )
      expect(rows).toEqual([{ bits: "7FF0000000000002" }])
      // A plain NaN is a value: it is answered, as "NaN".
      const plain = yield* get(`/query?query=rw_nan&time=${seconds(T0 + 1000)}`)
      expect(bodyOf(Vector, plain).data.result[0]?.value[1]).toBe("NaN")
      const before = yield* get(`/query?query=rw_gauge&time=${seconds(T0 + 44_000)}`)
      expect(bodyOf(Vector, before).data.result).toEqual([
        { metric: gauge, value: [seconds(T0 + 44_000), "3"] }
      ])
      // Within 5 minutes of the last real sample, but after the marker: nothing.
      const after = yield* get(`/query?query=rw_gauge&time=${seconds(T0 + 50_000)}`)
      expect(bodyOf(Vector, after).data.result).toEqual([])
    })
  )

  it.effect(
    "query_range: the lookback, rate's extrapolation and arithmetic, GET and form POST",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        // Steps at +5 s, +20 s, +35 s: the newest sample at or before each (1, 2, 3).
        const params = `start=${seconds(T0 + 5000)}&end=${seconds(T0 + 35_000)}&step=15s`
        const selected = yield* get(`/query_range?query=rw_gauge&${params}`)
        expect(bodyOf(Matrix, selected).data.result).toEqual([
          {
            metric: gauge,
            values: [
              [seconds(T0 + 5000), "1"],
              [seconds(T0 + 20_000), "2"],
              [seconds(T0 + 35_000), "3"]
            ]
          }
        ])
        // Window (T0 - 15 s, T0 + 45 s]: 0 → 45 over 45 s; the zero-start rule stops the
        // extrapolation at T0 and the window ends on the last sample: 45 / 60 s = 0.75.
        const form = new URLSearchParams({
          query: "rate(rw_total[1m]) * 2",
          start: String(seconds(T0 + 45_000)),
          end: String(seconds(T0 + 45_000)),
          step: "1"
        }).toString()
        const rate = yield* call(server, "POST", `${BASE}/query_range`, {
          token: adminKeyOf(server),
          rawBody: form,
          headers: { "content-type": "application/x-www-form-urlencoded" }
        })
        expect(bodyOf(Matrix, rate).data.result).toEqual([
          { metric: { job: "test", instance: "a" }, values: [[seconds(T0 + 45_000), "1.5"]] }
        ])
        const scalar = yield* get(`/query_range?query=${q("-1 ^ 2")}&start=100&end=110&step=10`)
        expect(bodyOf(Matrix, scalar).data.result).toEqual([
          {
            metric: {},
            values: [
              [100, "-1"],
              [110, "-1"]
            ]
          }
        ])
      })
  )

  it.effect("numbers print as Prometheus prints them; round, % and count_values follow Go", () =>
    Effect.gen(function* () {
      const scalarOf = (reply: Reply) => {
        expect(reply.status, reply.text).toBe(200)
        return bodyOf(Vector, reply).data.result.map((s) => s.value[1])
      }
      const at = (query: string) => get(`/query?query=${q(query)}&time=100`)
      // Exponent form below 1e-6 and from 1e21, with Go's two-digit exponent.
      expect(scalarOf(yield* at("vector(9e-7)"))).toEqual(["9e-07"])
      expect(scalarOf(yield* at("vector(1e21)"))).toEqual(["1e+21"])
      expect(scalarOf(yield* at("vector(123456.5)"))).toEqual(["123456.5"])
      expect(scalarOf(yield* at("vector(1/0)"))).toEqual(["+Inf"])
      expect(scalarOf(yield* at("vector(-1/0)"))).toEqual(["-Inf"])
      expect(scalarOf(yield* at("vector(0/0)"))).toEqual(["NaN"])
      // round is floor(x + 0.5): 2.5 → 3 and -2.5 → -2 (not ties to even).
      expect(scalarOf(yield* at("round(vector(2.5))"))).toEqual(["3"])
      expect(scalarOf(yield* at("round(vector(-2.5))"))).toEqual(["-2"])
      // Go's math.Mod: a finite x modulo an infinity is x.
      expect(scalarOf(yield* at("vector(5.5) % Inf"))).toEqual(["5.5"])
      const counted = yield* at(
        'count_values("v", vector(1e21)) or count_values("v", vector(1e-7)) or count_values("v", vector(0 * -1))'
      )
      // Negative zero keeps its sign (Prometheus 2.42 answers "-0" for the last).
      expect(
        bodyOf(Vector, counted)
          .data.result.map((s) => s.metric.v)
          .sort()
      ).toEqual(["-0", "0.0000001", "1000000000000000000000"])
    })
  )

  it.effect("series, labels and label values select by matchers", () =>
    Effect.gen(function* () {
      const names = yield* get(`/label/__name__/values`)
      expect(names.status, names.text).toBe(200)
      expect(bodyOf(Strings, names).data).toEqual(["rw_gauge", "rw_nan", "rw_total"])
      const labels = yield* get(`/labels?${q("match[]")}=${q('{job="test", instance="a"}')}`)
      expect(labels.status, labels.text).toBe(200)
      expect(bodyOf(Strings, labels).data).toEqual(["__name__", "instance", "job"])
      const series = yield* get(
        `/series?${q("match[]")}=${q('{__name__=~"rw_.*", instance!="a"}')}`
      )
      expect(series.json).toEqual({ status: "success", data: [nan] })
      // Prometheus 3's `limit`: at most that many, with its warning when there were more.
      expect((yield* get(`/label/__name__/values?limit=2`)).json).toEqual({
        status: "success",
        data: ["rw_gauge", "rw_nan"],
        warnings: ["results truncated due to limit"]
      })
      expect((yield* get(`/label/__name__/values?limit=3`)).json).toEqual({
        status: "success",
        data: ["rw_gauge", "rw_nan", "rw_total"]
      })
      const limitedLabels = yield* get(
        `/labels?limit=1&${q("match[]")}=${q('{job="test", instance="a"}')}`
      )
      expect(limitedLabels.json).toMatchObject({
        data: ["__name__"],
        warnings: [expect.any(String)]
      })
      expect((yield* get(`/labels?limit=0`)).json).not.toHaveProperty("warnings")
      const negative = yield* get(`/series?${q("match[]")}=rw_total&limit=-1`)
      expectPromError(negative, 400, "bad_data")
      expect(bodyOf(PromError, negative).error).toBe("limit must be non-negative")
      expectPromError(yield* get(`/labels?limit=ten`), 400, "bad_data")
    })
  )

  it.effect(
    "PromQL errors answer Prometheus's shape: bad_data for syntax and the points limit",
    () =>
      Effect.gen(function* () {
        const unclosed = yield* get(`/query?query=${q("sum(")}`)
        expectPromError(unclosed, 400, "bad_data")
        // The input ends where an expression should start: after the 4th character.
        expect(bodyOf(PromError, unclosed).error).toBe(
          'invalid parameter "query": 1:5: parse error: unclosed left parenthesis'
        )
        expectPromError(yield* get(`/query?query=${q('{__name__=~".*"}')}`), 400, "bad_data")
        // 0 to 11 001 s at 1 s is 11 002 points.
        expectPromError(
          yield* get(`/query_range?query=1&start=0&end=11001&step=1`),
          400,
          "bad_data"
        )
        expectPromError(
          yield* get(`/query_range?query=1&start=0&end=10&step=soon`),
          400,
          "bad_data"
        )
        expectPromError(yield* get(`/query?query=1&time=yesterday`), 400, "bad_data")
      })
  )

  it.effect("format_query answers the query as Prometheus prints it, or bad_data", () =>
    Effect.gen(function* () {
      const Formatted = Schema.Struct({ status: Schema.Literal("success"), data: Schema.String })
      const long = `sum(rate(rw_total{job="a-job-with-a-long-name", instance="an-instance-with-a-long-name"}[5m])) by (job)`
      const reply = yield* get(`/format_query?query=${q(long)}`)
      expect(reply.status, reply.text).toBe(200)
      expect(bodyOf(Formatted, reply).data).toBe(
        [
          "sum by (job) (",
          '  rate(rw_total{instance="an-instance-with-a-long-name",job="a-job-with-a-long-name"}[5m])',
          ")"
        ].join("\n")
      )
      const bad = yield* get(`/format_query?query=${q("sum(")}`)
      expectPromError(bad, 400, "bad_data")
      expect(bodyOf(PromError, bad).error).toBe(
        'invalid parameter "query": 1:5: parse error: unclosed left parenthesis'
      )
      // As a form, as Prometheus takes it too; no query is a parse error, not a 400 of ours.
      const server = yield* TestServer
      const posted = yield* call(server, "POST", `${BASE}/format_query`, {
        token: adminKeyOf(server),
        rawBody: new URLSearchParams({ query: "sum(x)by(job)" }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" }
      })
      expect(bodyOf(Formatted, posted).data).toBe("sum by (job) (x)")
      expectPromError(yield* get("/format_query"), 400, "bad_data")
    })
  )

  it.effect("metadata sent by remote write answers /metadata, the newest per family", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const counterMeta = { type: 1, metric: "rw_total", help: "Requests so far.", unit: "" }
      const first = remoteWriteBody([], [{ ...counterMeta, help: "Old help." }])
      expect((yield* write(first, adminKeyOf(server))).status).toBe(204)
      const second = remoteWriteBody(
        [],
        [counterMeta, { type: 2, metric: "rw_gauge", help: "A gauge.", unit: "bytes" }]
      )
      expect((yield* write(second, adminKeyOf(server))).status).toBe(204)
      expect((yield* get("/metadata")).json).toEqual({
        status: "success",
        data: {
          rw_gauge: [{ type: "gauge", help: "A gauge.", unit: "bytes" }],
          rw_total: [{ type: "counter", help: "Requests so far.", unit: "" }]
        }
      })
      expect((yield* get("/metadata?metric=rw_gauge")).json).toEqual({
        status: "success",
        data: { rw_gauge: [{ type: "gauge", help: "A gauge.", unit: "bytes" }] }
      })
      // Prometheus 3's limits: families (0 is none of them, a negative one all), entries of
      // each (0 is no limit); a limit that is no integer is bad_data.
      const families = (query: string) =>
        Effect.map(get(`/metadata?${query}`), (reply) =>
          Object.keys((reply.json as { data: object }).data)
        )
      expect(yield* families("limit=1")).toEqual(["rw_gauge"])
      expect(yield* families("limit=0")).toEqual([])
      expect(yield* families("limit=-1")).toEqual(["rw_gauge", "rw_total"])
      expect(yield* families("limit_per_metric=0")).toEqual(["rw_gauge", "rw_total"])
      const refused = yield* get("/metadata?limit=1.5")
      expectPromError(refused, 400, "bad_data")
      expect(refused.json).toMatchObject({ error: "limit must be a number" })
      expect((yield* get("/metadata?limit_per_metric=few")).json).toMatchObject({
        error: "limit_per_metric must be a number"
      })
    })
  )

  it.effect("bad bodies are 400s, an oversized one 413, and none of them stores anything", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      expectSluiceError(
        yield* write(new TextEncoder().encode("not snappy at all"), admin),
        400,
        "bad_request"
      )
      const whole = writeRequestBytes([
        { labels: { __name__: "rw_truncated" }, samples: [[T0, 1]] }
      ])
      const truncated = Snappy.compress(whole.subarray(0, whole.length - 3))
      expectSluiceError(yield* write(truncated, admin), 400, "bad_request")
      const badName = remoteWriteBody([
        { labels: { __name__: "rw_bad", "bad-name": "x" }, samples: [[T0, 1]] }
      ])
      const refused = yield* write(badName, admin)
      expectSluiceError(refused, 400, "bad_request")
      expect(bodyOf(ErrorBody, refused).message).toContain("bad-name")
      // A label value that is not UTF-8 (labels are decoded after the samples are read).
      const valid = writeRequestBytes([
        { labels: { __name__: "rw_bad_utf8", where: "QQ" }, samples: [[T0, 1]] }
      ])
      const at = Buffer.from(valid).indexOf("QQ")
      const notUtf8 = Uint8Array.from(valid)
      notUtf8.set([0xff, 0xfe], at)
      expectSluiceError(yield* write(Snappy.compress(notUtf8), admin), 400, "bad_request")
      // A snappy header announcing 1 GiB: refused before anything is inflated.
      const huge = Uint8Array.from([0x80, 0x80, 0x80, 0x80, 0x04, 0x00])
      expectSluiceError(yield* write(huge, admin), 413, "payload_too_large")
      // Sent without a length, a body past the limit (64 MiB) is refused once that much came,
      // while the sender is still sending.
      const endless = yield* endlessUpload(
        `${server.url}/metrics-compat/api/v1/write`,
        { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${admin}` },
        new Uint8Array(1024 * 1024)
      )
      expectSluiceError(endless, 413, "payload_too_large")
      const names = yield* get(`/label/__name__/values`)
      expect(bodyOf(Strings, names).data).toEqual(["rw_gauge", "rw_nan", "rw_total"])
    })
  )

  it.effect("credentials: none is a 401, a read-only key may query but not write", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expectSluiceError(yield* write(body, undefined), 401, "unauthorized")
      const created = yield* call(server, "POST", "/v1/keys", {
        token: adminKeyOf(server),
        body: { name: "metrics-reader", permission: "read_only" }
      })
      const reader = bodyOf(CreatedKey, created).key.token
      expectSluiceError(yield* write(body, reader), 403, "forbidden")
      const read = yield* call(server, "GET", `${BASE}/query?query=1&time=10`, { token: reader })
      expect(read.json).toEqual({
        status: "success",
        data: { resultType: "scalar", result: [10, "1"] }
      })
    })
  )

  it.effect("a real remote-write client (prometheus-remote-write) is accepted", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const result = yield* Effect.promise(() =>
        pushTimeseries(
          {
            labels: { __name__: "rw_client", job: "npm" },
            samples: [{ value: 42, timestamp: T0 }]
          },
          {
            url: `${server.url}${BASE}/write`,
            headers: { authorization: `Bearer ${adminKeyOf(server)}` },
            // Its default is node-fetch, which this project does not install.
            fetch: (url, init) =>
              fetch(url, {
                method: init?.method ?? "POST",
                headers: init?.headers ?? {},
                body: init === undefined ? null : new Uint8Array(init.body)
              })
          }
        )
      )
      expect(result.status).toBe(204)
      const read = yield* get(`/query?query=rw_client&time=${seconds(T0)}`)
      expect(bodyOf(Vector, read).data.result).toEqual([
        { metric: { __name__: "rw_client", job: "npm" }, value: [seconds(T0), "42"] }
      ])
    })
  )

  it.effect("writes of one series within an hour and hours apart are all read back", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const hour = 3_600_000
      const start = (Math.ceil(T0 / hour) + 10) * hour
      const labels = { __name__: "rw_hours", job: "hours" }
      // The second write is in the first one's hour, the third three hours later.
      for (const [t, v] of [
        [start + 60_000, 1],
        [start + 120_000, 2],
        [start + 3 * hour, 3]
      ] as const) {
        const reply = yield* write(remoteWriteBody([{ labels, samples: [[t, v]] }]), token)
        expect(reply.status, reply.text).toBe(204)
      }
      const at = (ms: number) => get(`/query?query=rw_hours&time=${ms / 1000}`)
      expect(bodyOf(Vector, yield* at(start + 120_000)).data.result).toEqual([
        { metric: labels, value: [(start + 120_000) / 1000, "2"] }
      ])
      expect(bodyOf(Vector, yield* at(start + 3 * hour)).data.result).toEqual([
        { metric: labels, value: [(start + 3 * hour) / 1000, "3"] }
      ])
      const seriesIn = (from: number, to: number) =>
        get(`/series?${q("match[]")}=rw_hours&start=${from / 1000}&end=${to / 1000}`)
      expect((yield* seriesIn(start + 3 * hour - 60_000, start + 3 * hour)).json).toEqual({
        status: "success",
        data: [labels]
      })
      expect((yield* seriesIn(start - 5 * hour, start - 4 * hour)).json).toEqual({
        status: "success",
        data: []
      })
    })
  )
})
