/**
 * A real Prometheus scrapes itself and remote-writes to sluice with a cluster key; then
 * promtool, which cannot send a bearer, reads the series back from sluice with the key as
 * the URL's password (Basic auth). Skips when Prometheus is not on PATH.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { installApp } from "../support/client.js"
import { eventually } from "../support/eventually.js"
import { freePort, hasPrometheus, promtool, startPrometheus } from "../support/prometheus.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "promtool-admin@example.com"
const PASSWORD = "promtool admin password"

if (!hasPrometheus) console.warn("promtool: no `prometheus`/`promtool` on PATH; skipped")

const Labels = Schema.Record({ key: Schema.String, value: Schema.String })
const Sample = Schema.Tuple(Schema.Number, Schema.String)
const Vector = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    result: Schema.Array(Schema.Struct({ metric: Labels, value: Sample }))
  })
})
// promtool -o json prints the model's vector and matrix as they are.
const PromtoolVector = Schema.parseJson(
  Schema.Array(Schema.Struct({ metric: Labels, value: Sample }))
)
const PromtoolMatrix = Schema.parseJson(
  Schema.Array(Schema.Struct({ metric: Labels, values: Schema.Array(Sample) }))
)

layer(
  TestServer.layer(freshDataDir("metrics-promtool"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("Prometheus remote write in, promtool out", (it) => {
  it.scoped.skipIf(!hasPrometheus)(
    "a scraped series written by Prometheus reads back with promtool query instant and range",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const key = adminKeyOf(server)
        yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
        const port = yield* freePort()
        const target = `127.0.0.1:${port}`
        yield* startPrometheus(
          port,
          [
            "global:",
            "  scrape_interval: 1s",
            "scrape_configs:",
            "  - job_name: self",
            `    static_configs: [{targets: ["${target}"]}]`,
            "remote_write:",
            `  - url: ${server.url}/metrics-compat/api/v1/write`,
            `    authorization: {credentials: "${key}"}`,
            "    queue_config: {batch_send_deadline: 1s}",
            ""
          ].join("\n")
        )
        // The scrape succeeded, so `up` is 1: polled until the write has reached sluice.
        const expected = { __name__: "up", instance: target, job: "self" }
        const seen = yield* eventually(
          "Prometheus's remote write of up",
          Effect.gen(function* () {
            const reply = yield* call(
              server,
              "GET",
              `/metrics-compat/api/v1/query?query=${encodeURIComponent('up{job="self"}')}`,
              { token: key }
            )
            const result = reply.status === 200 ? bodyOf(Vector, reply).data.result : []
            return result.length > 0 ? result : undefined
          }),
          { attempts: 600, pauseMs: 100 }
        )
        expect(seen.map((s) => ({ metric: s.metric, value: s.value[1] }))).toEqual([
          { metric: expected, value: "1" }
        ])
        // The sample's own time: at it and within the 5 m lookback after it, up answers 1.
        const stamped = yield* call(
          server,
          "GET",
          `/metrics-compat/api/v1/query?query=${encodeURIComponent('timestamp(up{job="self"})')}&time=${seen[0]!.value[0]}`,
          { token: key }
        )
        const at = Number(bodyOf(Vector, stamped).data.result[0]!.value[1])

        const base = server.url.replace("http://", `http://promtool:${key}@`) + "/metrics-compat"
        const instant = yield* promtool([
          "query",
          "instant",
          "-o",
          "json",
          `--time=${at}`,
          base,
          'up{job="self"}'
        ])
        expect(instant.code, instant.stderr).toBe(0)
        expect(Schema.decodeUnknownSync(PromtoolVector)(instant.stdout)).toEqual([
          { metric: expected, value: [at, "1"] }
        ])

        // Two 1 s steps from the sample's time: both answer 1 (the second by the lookback).
        const range = yield* promtool([
          "query",
          "range",
          "-o",
          "json",
          `--start=${at}`,
          `--end=${at + 1}`,
          "--step=1s",
          base,
          'up{job="self"}'
        ])
        expect(range.code, range.stderr).toBe(0)
        expect(Schema.decodeUnknownSync(PromtoolMatrix)(range.stdout)).toEqual([
          {
            metric: expected,
            values: [
              [at, "1"],
              [at + 1, "1"]
            ]
          }
        ])

        // A wrong key in the URL is refused: promtool exits non-zero.
        const refused = yield* promtool([
          "query",
          "instant",
          server.url.replace("http://", "http://promtool:rt_wrong@") + "/metrics-compat",
          "up"
        ])
        expect(refused.code).not.toBe(0)
      })
  )
})
