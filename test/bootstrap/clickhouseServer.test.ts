/**
 * `npm start` on a real ClickHouse server (`SLUICE_CLICKHOUSE_URL`, the test server of
 * `test/support/clickhouseServer.ts`, whose user cannot manage access): with access
 * control on, the start stops with one line naming the privileges the user lacks; so
 * does a server that cannot be reached or refuses the login, and a user that may not
 * create the clusters' databases and tables. With
 * `SLUICE_CLICKHOUSE_ACCESS_CONTROL=off` it starts, says that clusters on the server are
 * not isolated by it, and data goes in and comes out through the API; once the server
 * is gone, every way in answers what its clients retry (503; UNAVAILABLE over OTLP/gRPC;
 * HEC's "Server is busy") without naming where the server was.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { createServer } from "node:net"
import * as path from "node:path"
import { create, toBinary } from "@bufbuild/protobuf"
import { status } from "@grpc/grpc-js"
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Scope } from "effect"
import { ExportTraceServiceRequestSchema } from "../../src/otlp/gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import {
  ClickHouseTestServer,
  startClickHouseServer,
  startClickHouseServerWith
} from "../support/clickhouseServer.js"
import { call, freshDataDir } from "../support/server.js"
import { installApp } from "../support/client.js"
import { grpcCall } from "../support/otel.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"

const root = path.resolve(import.meta.dirname, "../..")

/** `npm start`'s command with `env`, output gathered. */
const launch = (env: Record<string, string>) => {
  const child = spawn(process.execPath, ["src/start.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      SLUICE_DATA_DIR: freshDataDir("sluice-on-server"),
      SLUICE_PORT: "0",
      SLUICE_GRPC_PORT: "0",
      ...env
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  return { child, output: () => output }
}

const exitOf = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
    child.once("exit", (code) => resume(Effect.succeed(code)))
  })

/** Runs to its exit: the refusals end the process by themselves. */
const refusal = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const run = launch(env)
    const code = yield* exitOf(run.child)
    const lines = run.output().trim().split("\n")
    return { code, lines }
  })

/** Started and listening (the whole announcement read); stopped with the scope. */
const started = (env: Record<string, string>) =>
  Effect.gen(function* () {
    const run = yield* Effect.acquireRelease(
      Effect.sync(() => launch(env)),
      (run) =>
        Effect.zipRight(
          Effect.sync(() => run.child.kill("SIGTERM")),
          exitOf(run.child)
        )
    )
    return yield* Effect.async<{ readonly url: string; readonly key: string }, Error>((resume) => {
      run.child.stdout?.on("data", () => {
        const url = /sluice listening on (http:\/\/\S+)/.exec(run.output())?.[1]
        const key = /admin API key:\s+(rt_\S+)/.exec(run.output())?.[1]
        if (url !== undefined && key !== undefined) resume(Effect.succeed({ url, key }))
      })
      run.child.once("exit", (code) =>
        resume(Effect.fail(new Error(`exited ${code}: ${run.output()}`)))
      )
    }).pipe(Effect.map((found) => ({ ...found, output: run.output() })))
  })

/** A loopback port nothing listens on (held, then released). */
const closedPort = Effect.async<number>((resume) => {
  const probe = createServer()
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})

const GONE_ADMIN = { email: "gone@example.com", password: "gone-server-admin-password" }

/** One span, as an OTLP exporter sends it. */
const traceRequest = toBinary(
  ExportTraceServiceRequestSchema,
  create(ExportTraceServiceRequestSchema, {
    resourceSpans: [
      {
        scopeSpans: [
          {
            spans: [
              {
                traceId: new Uint8Array(16).fill(0xab),
                spanId: new Uint8Array(8).fill(0xcd),
                name: "checkout",
                startTimeUnixNano: 1_750_000_000_000_000_000n,
                endTimeUnixNano: 1_750_000_000_100_000_000n
              }
            ]
          }
        ]
      }
    ]
  })
)

describe("npm start on a ClickHouse server", () => {
  layer(ClickHouseTestServer.layer, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("a user that cannot manage access: one line naming what it lacks, exit 1", () =>
      Effect.gen(function* () {
        const server = yield* ClickHouseTestServer
        const { code, lines } = yield* refusal({ SLUICE_CLICKHOUSE_URL: server.url })
        expect(code).toBe(1)
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(
          new RegExp(
            `^sluice: cannot start: ClickHouse user 'default' at ${server.url} cannot manage access`
          )
        )
        for (const privilege of ["CREATE USER", "CREATE SETTINGS PROFILE", "ALTER USER"]) {
          expect(lines[0]).toContain(privilege)
        }
        expect(lines[0]).toContain("SLUICE_CLICKHOUSE_ACCESS_CONTROL=off")
      })
    )

    it.effect("a wrong password: one line naming the user settings, exit 1", () =>
      Effect.gen(function* () {
        const server = yield* ClickHouseTestServer
        const { code, lines } = yield* refusal({
          SLUICE_CLICKHOUSE_URL: server.url,
          SLUICE_CLICKHOUSE_PASSWORD: "not-the-password"
        })
        expect(code).toBe(1)
        expect(lines).toEqual([
          `sluice: cannot start: the ClickHouse server at ${server.url} (SLUICE_CLICKHOUSE_URL) ` +
            "refused user 'default' (SLUICE_CLICKHOUSE_USER, SLUICE_CLICKHOUSE_PASSWORD): " +
            "wrong password, no such user, or not allowed from here"
        ])
        expect(lines.join("\n")).not.toContain("not-the-password")
      })
    )

    it.effect("access control off: starts, says clusters are not isolated, data in and out", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const server = yield* ClickHouseTestServer
          const sluice = yield* started({
            SLUICE_CLICKHOUSE_URL: server.url,
            SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off"
          })
          expect(sluice.output).toMatch(
            /sluice listening on \S+ \(embedded control plane, external ClickHouse engines \(access control off: clusters on this server are not isolated from each other by the server\)/
          )
          const inserted = yield* call(sluice, "POST", "/v1/tables/visits", {
            token: sluice.key,
            body: [
              { page: "/", ms: 12 },
              { page: "/cart", ms: 30 }
            ]
          })
          expect(inserted.json).toEqual({ inserted: 2 })
          const queried = yield* call(sluice, "POST", "/v1/query", {
            token: sluice.key,
            body: { sql: "SELECT count() AS n, sum(ms) AS total FROM visits" }
          })
          expect(queried.status).toBe(200)
          // 64-bit integers as strings, as the embedded engine answers them.
          expect(queried.json).toMatchObject({ data: [{ n: "2", total: "42" }] })
          // The rows are in the server's own tables, not in an embedded engine.
          const onServer = yield* Effect.promise(() =>
            fetch(
              `${server.url}/?query=${encodeURIComponent(
                "SELECT count() FROM merge(REGEXP('^sluice_'), '^visits$')"
              )}`
            ).then((r) => r.text())
          )
          expect(onServer.trim()).toBe("2")
        })
      )
    )
  })

  it.effect(
    "a server gone while sluice runs: reads and writes unavailable, naming no address",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const serverScope = yield* Scope.make()
          const server = yield* Scope.extend(startClickHouseServer, serverScope)
          const grpcPort = yield* closedPort
          const sluice = yield* started({
            SLUICE_CLICKHOUSE_URL: server.url,
            SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off",
            SLUICE_GRPC_PORT: String(grpcPort),
            SLUICE_ADMIN_EMAIL: GONE_ADMIN.email,
            SLUICE_ADMIN_PASSWORD: GONE_ADMIN.password
          })
          yield* installApp(sluice, "otlp-app", GONE_ADMIN.email, GONE_ADMIN.password)
          yield* installApp(sluice, "spl-app", GONE_ADMIN.email, GONE_ADMIN.password)
          yield* installApp(sluice, "metrics-app", GONE_ADMIN.email, GONE_ADMIN.password)
          const remoteWrite = call(sluice, "POST", "/metrics-compat/api/v1/write", {
            rawBody: remoteWriteBody([{ labels: { __name__: "up" }, samples: [[Date.now(), 1]] }]),
            headers: { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${sluice.key}` }
          })
          const promql = call(sluice, "GET", "/metrics-compat/api/v1/query?query=up", {
            token: sluice.key
          })
          expect((yield* remoteWrite).status).toBe(204)
          expect((yield* promql).status).toBe(200)
          const collect = call(sluice, "POST", "/services/collector/event", {
            rawBody: JSON.stringify({ event: "checkout done" }),
            headers: { authorization: `Splunk ${sluice.key}` }
          })
          expect((yield* collect).json).toEqual({ text: "Success", code: 0 })
          const exportSpan = grpcCall(
            grpcPort,
            "opentelemetry.proto.collector.trace.v1.TraceService",
            traceRequest,
            { authorization: `Bearer ${sluice.key}` }
          )
          expect((yield* exportSpan).code).toBe(status.OK)
          const insert = call(sluice, "POST", "/v1/tables/visits", {
            token: sluice.key,
            body: [{ page: "/", ms: 12 }]
          })
          const query = call(sluice, "POST", "/v1/query", {
            token: sluice.key,
            body: { sql: "SELECT count() FROM visits" }
          })
          expect((yield* insert).json).toEqual({ inserted: 1 })
          yield* Scope.close(serverScope, Exit.void)

          const { port } = new URL(server.url)
          for (const reply of [yield* query, yield* insert]) {
            expect(reply.status).toBe(503)
            expect(reply.json).toMatchObject({
              error: "unavailable",
              message: "The ClickHouse server could not be reached (connection refused).",
              hint: "Retry shortly."
            })
            expect(JSON.stringify(reply.json)).not.toContain(port)
          }
          // An OTLP exporter retries on UNAVAILABLE, as an HTTP client does on a 503.
          const exported = yield* exportSpan
          expect(exported.code).toBe(status.UNAVAILABLE)
          expect(exported.details).toContain("The ClickHouse server could not be reached")
          // Prometheus's remote write retries a 5xx; its samples were kept for the next try.
          expect((yield* remoteWrite).status).toBe(503)
          expect((yield* promql).status).toBe(503)
          // A HEC sender retries "Server is busy".
          const collected = yield* collect
          expect(collected.status).toBe(503)
          expect(collected.json).toEqual({ text: "Server is busy", code: 9 })
          // The service itself stays up.
          expect((yield* call(sluice, "GET", "/health")).status).toBe(200)
        })
      )
  )

  // A users.xml user with a password that may only read: it lacks what the clusters'
  // databases need, whether or not access control is on. (`default` runs the launcher's
  // own statements.)
  const readerOnly = Layer.scoped(
    ClickHouseTestServer,
    startClickHouseServerWith({
      config: ({ file }) => `<clickhouse>
  <users_config>${file}</users_config>
  <profiles><default/></profiles>
  <quotas><default/></quotas>
  <users>
    <default>
      <no_password/>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
    <reader>
      <password>reader password</password>
      <networks><ip>127.0.0.1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
      <grants><query>GRANT SELECT ON *.*</query></grants>
    </reader>
  </users>
</clickhouse>`
    })
  ).pipe(Layer.orDie)

  layer(readerOnly, { excludeTestServices: true, timeout: 120_000 })((it) => {
    it.effect("a user without the namespace privileges: one line naming them, exit 1", () =>
      Effect.gen(function* () {
        const server = yield* ClickHouseTestServer
        const { code, lines } = yield* refusal({
          SLUICE_CLICKHOUSE_URL: server.url,
          SLUICE_CLICKHOUSE_USER: "reader",
          SLUICE_CLICKHOUSE_PASSWORD: "reader password",
          SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off"
        })
        expect(code).toBe(1)
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(
          new RegExp(`^sluice: cannot start: ClickHouse user 'reader' at ${server.url} lacks `)
        )
        for (const privilege of ["INSERT", "CREATE DATABASE", "CREATE TABLE", "DROP TABLE"]) {
          expect(lines[0]).toContain(privilege)
        }
        expect(lines[0]).not.toContain("SELECT,")
        expect(lines[0]).toContain("ON `sluice_*`.*")
        expect(lines[0]).not.toContain("reader password")
      })
    )
  })

  it.live("an unreachable server: one line, exit 1", () =>
    Effect.gen(function* () {
      const url = `http://127.0.0.1:${yield* closedPort}`
      const { code, lines } = yield* refusal({ SLUICE_CLICKHOUSE_URL: url })
      expect(code).toBe(1)
      expect(lines).toEqual([
        `sluice: cannot start: the ClickHouse server at ${url} (SLUICE_CLICKHOUSE_URL) ` +
          "cannot be reached: connection refused"
      ])
    })
  )
})
