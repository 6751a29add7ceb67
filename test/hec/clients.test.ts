/**
 * HEC senders against the real server: splunk-logging 0.11.1 itself (single and batched),
 * and the request shapes of the OpenTelemetry Collector's `splunk_hec` exporter and of
 * `splunk-events` replayed as their sources send them. Events are read back by SQL.
 * Expected values are worked out from the spec: epoch 1767225600 is 2026-01-01T00:00:00Z.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import splunk from "splunk-logging"
import { gzipSync } from "node:zlib"
import { events, installSplApp, post } from "../support/hec.js"
import { adminKeyOf, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "hec-admin@example.com"
const PASSWORD = "hec admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

type Payload = Parameters<InstanceType<typeof splunk.Logger>["send"]>[0]

/** Sends `payloads` with a logger that flushes every `batch` events; the bodies' answers. */
const viaSplunkLogging = (url: string, token: string, batch: number, payloads: Array<Payload>) =>
  Effect.async<ReadonlyArray<unknown>, Error>((resume) => {
    const logger = new splunk.Logger({ token, url, maxBatchCount: batch })
    const answers: Array<unknown> = []
    logger.error = (error) => resume(Effect.fail(error))
    for (const payload of payloads) {
      logger.send(payload, (error, _response, body) => {
        if (error !== null) return resume(Effect.fail(error))
        answers.push(body)
        if (answers.length === payloads.length / batch) resume(Effect.succeed(answers))
      })
    }
  })

layer(TestServer.layer(freshDataDir("hec-clients"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("HEC senders", (it) => {
  it.effect("before the spl-app is installed: 404 naming the app, in the protocol's shape", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* post(server, "/services/collector", '{"event":"x"}', adminKeyOf(server))
      expect(reply.status).toBe(404)
      expect(reply.json).toEqual({
        text: expect.stringContaining("spl-app"),
        code: 404,
        hint: expect.stringContaining("PUT /v1/apps/spl-app?organization=default&cluster=default")
      })
      yield* installSplApp(server, ADMIN, PASSWORD)
    })
  )

  it.effect("splunk-logging, one event per request: metadata, time string with decimals", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const answers = yield* viaSplunkLogging(server.url, adminKeyOf(server), 1, [
        {
          message: "single hello",
          metadata: {
            time: 1767225600.123,
            host: "web-1",
            source: "checkout",
            sourcetype: "app:json",
            index: "main"
          }
        }
      ])
      expect(answers).toEqual([{ text: "Success", code: 0 }])
      const rows = yield* events(
        server,
        "toString(_time) AS t, host, source, sourcetype, index, _raw, message, severity",
        "message = 'single hello'"
      )
      expect(rows).toEqual([
        {
          t: "2026-01-01 00:00:00.123",
          host: "web-1",
          source: "checkout",
          sourcetype: "app:json",
          index: "main",
          _raw: '{"message":"single hello","severity":"info"}',
          message: "single hello",
          severity: "info"
        }
      ])
    })
  )

  it.effect("splunk-logging batches (maxBatchCount 3): defaults for host, source, sourcetype", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const payloads = [1, 2, 3, 4, 5, 6].map((n) => ({
        message: { text: `batch ${n}`, n },
        severity: "warn",
        // Milliseconds, which splunk-logging turns into seconds with three decimals.
        metadata: { time: 1767225600000 + n * 1500 }
      }))
      const answers = yield* viaSplunkLogging(server.url, adminKeyOf(server), 3, payloads)
      expect(answers).toEqual([
        { text: "Success", code: 0 },
        { text: "Success", code: 0 }
      ])
      const rows = yield* events(
        server,
        "toString(_time) AS t, host, source, sourcetype, index, `message.text` AS text, `message.n` AS n",
        "severity = 'warn'"
      )
      expect(rows).toEqual(
        ["01.500", "03.000", "04.500", "06.000", "07.500", "09.000"].map((s, i) => ({
          t: `2026-01-01 00:00:${s}`,
          host: "127.0.0.1",
          source: "http:bootstrap admin",
          sourcetype: "httpevent",
          index: "main",
          text: `batch ${i + 1}`,
          n: String(i + 1)
        }))
      )
    })
  )

  it.effect("the Collector's splunk_hec exporter: gzip, concatenated, float time, fields", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const envelope = (i: number) =>
        JSON.stringify({
          time: 1767225700.25 + i,
          host: "node-a",
          source: "otel",
          sourcetype: "otel",
          index: "main",
          event: `collector line ${i}`,
          fields: { "k8s.pod.name": `pod-${i}`, "http.status": 200 + i, tags: ["a", "b"] }
        })
      // At least 1,500 bytes, as the exporter gzips only then.
      const body = Array.from({ length: 20 }, (_, i) => envelope(i)).join("")
      expect(body.length).toBeGreaterThan(1500)
      const reply = yield* post(server, "/services/collector", gzipSync(body), adminKeyOf(server), {
        "content-type": "application/json",
        "content-encoding": "gzip",
        "user-agent": "OpenTelemetry Collector Contrib/0.120.0",
        __splunk_app_name: "OpenTelemetry Collector Contrib"
      })
      expect({ status: reply.status, json: reply.json }).toEqual({
        status: 200,
        json: { text: "Success", code: 0 }
      })
      const rows = yield* events(
        server,
        "toString(_time) AS t, host, _raw, `k8s.pod.name` AS pod, `http.status` AS status, tags",
        "source = 'otel' AND _raw IN ('collector line 0', 'collector line 19')"
      )
      expect(rows).toEqual([
        {
          t: "2026-01-01 00:01:40.250",
          host: "node-a",
          _raw: "collector line 0",
          pod: "pod-0",
          status: "200",
          tags: ["a", "b"]
        },
        {
          t: "2026-01-01 00:01:59.250",
          host: "node-a",
          _raw: "collector line 19",
          pod: "pod-19",
          status: "219",
          tags: ["a", "b"]
        }
      ])
    })
  )

  it.effect("splunk-events: newline-joined, time in milliseconds, JSON content type", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const body = [
        { sourcetype: "browser", host: "tab-1", time: 1767225800500, event: { page: "/a" } },
        { sourcetype: "browser", host: "tab-1", time: 1767225801000, event: { page: "/b" } }
      ]
        .map((e) => JSON.stringify(e))
        .join("\n")
      const reply = yield* post(server, "/services/collector/event", body, adminKeyOf(server), {
        "content-type": "application/json"
      })
      expect(reply.json).toEqual({ text: "Success", code: 0 })
      const rows = yield* events(server, "toString(_time) AS t, page", "sourcetype = 'browser'")
      expect(rows).toEqual([
        { t: "2026-01-01 00:03:20.500", page: "/a" },
        { t: "2026-01-01 00:03:21.000", page: "/b" }
      ])
    })
  )

  it.effect("the brief's query: SELECT _time, host, _raw, message FROM spl_events", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const rows = yield* events(server, "_time, host, _raw, message", "host = 'web-1'")
      expect(rows).toEqual([
        {
          _time: "2026-01-01 00:00:00.123",
          host: "web-1",
          _raw: '{"message":"single hello","severity":"info"}',
          message: "single hello"
        }
      ])
    })
  )
})
