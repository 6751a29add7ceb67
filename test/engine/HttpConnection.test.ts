/**
 * The connection sluice gives `@clickhouse/client` for a ClickHouse server, through the
 * client as the engine uses it, against the real test server: results, settings and
 * headers, the server's refusals, escaped parameters, inserts and their summary, aborts,
 * keep-alive sockets (kept, and dropped once idle past their time even when the timers
 * could not run), and what an unusable server answers.
 */
import { createClient } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Layer } from "effect"
import { Readable } from "node:stream"
import { httpConnection } from "../../src/engine/HttpConnection.js"
import type { HttpConnectionOptions } from "../../src/engine/HttpConnection.js"
import { startClickHouseServer } from "../support/clickhouseServer.js"

class Server extends Context.Tag("test/HttpConnection/Server")<
  Server,
  { readonly url: string }
>() {}

const clientOn = (options: HttpConnectionOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => createClient({ url: options.url, connection: httpConnection(options) })),
    (client) => Effect.promise(() => client.close())
  )

const client = (options: Partial<HttpConnectionOptions> = {}) =>
  Effect.flatMap(Server, ({ url }) =>
    clientOn({ url, username: "default", password: "", ...options })
  )

const text = (c: ClickHouseClient, query: string, params: object = {}) =>
  Effect.promise(async () => {
    const { stream } = await c.exec({ query, ...params })
    let out = ""
    for await (const chunk of stream) out += String(chunk)
    return out
  })

const failure = (c: ClickHouseClient, query: string, params: object = {}) =>
  Effect.flip(
    Effect.tryPromise({
      try: async () => {
        const { stream } = await c.exec({ query, ...params })
        for await (const _ of stream) {
          // read to the end
        }
      },
      catch: (error) => error as Error & { code?: string; type?: string }
    })
  )

/** The client port of the connection a statement came in on, as the server saw it. */
const clientPort = (c: ClickHouseClient) =>
  Effect.map(
    text(c, "SELECT port FROM system.processes WHERE query_id = queryID() FORMAT TSV"),
    Number
  )

const ServerLive = Layer.scoped(
  Server,
  Effect.map(startClickHouseServer, (server) => ({ url: server.url }))
)

layer(ServerLive, { timeout: 120_000 })("HttpConnection", (it) => {
  it.scoped("answers a statement with its settings, database and parameters applied", () =>
    Effect.gen(function* () {
      const c = yield* client()
      yield* text(c, "CREATE DATABASE IF NOT EXISTS conn_db")
      const answer = yield* text(
        c,
        "SELECT currentDatabase(), getSetting('max_threads'), {s:String} FORMAT TSV",
        {
          clickhouse_settings: { max_threads: 3 },
          http_headers: { "X-ClickHouse-Database": "conn_db" },
          // Every character the URL's escaped form must carry through.
          query_params: { s: "tab\there, line\nbreak, 'quote', back\\slash" }
        }
      )
      expect(answer).toBe("conn_db\t3\ttab\\there, line\\nbreak, \\'quote\\', back\\\\slash\n")
    })
  )

  it.scoped("reports a statement the server refuses as the client's ClickHouseError", () =>
    Effect.gen(function* () {
      const c = yield* client()
      const error = yield* failure(c, "SELECT no_such_column")
      expect(error.constructor.name).toBe("ClickHouseError")
      expect(error.type).toBe("UNKNOWN_IDENTIFIER")
      expect(error.code).toBe("47")
      // The connection is still usable afterwards.
      expect(yield* text(c, "SELECT 1 FORMAT TSV")).toBe("1\n")
    })
  )

  it.scoped("streams an insert's body and returns the server's summary", () =>
    Effect.gen(function* () {
      const c = yield* client()
      yield* text(c, "CREATE TABLE IF NOT EXISTS conn_rows (n UInt32) ENGINE = Memory")
      const rows = Array.from({ length: 1000 }, (_, i) => `${i}\n`)
      const result = yield* Effect.promise(async () => {
        const answer = await c.exec({
          query: "INSERT INTO conn_rows FORMAT TSV",
          values: Readable.from(rows)
        })
        for await (const _ of answer.stream) {
          // an insert's answer is empty
        }
        return answer
      })
      expect(result.summary?.written_rows).toBe("1000")
      expect(yield* text(c, "SELECT count(), sum(n) FROM conn_rows FORMAT TSV")).toBe(
        "1000\t499500\n"
      )
    })
  )

  it.scoped("ends a statement whose caller aborts, and serves the next one", () =>
    Effect.gen(function* () {
      const c = yield* client()
      const controller = new AbortController()
      const running = Effect.runPromise(
        failure(c, "SELECT sleepEachRow(0.5) FROM numbers(20) FORMAT Null", {
          abort_signal: controller.signal
        })
      )
      controller.abort()
      const error = yield* Effect.promise(() => running)
      expect(error.message).toBe("The user aborted a request.")
      expect(yield* text(c, "SELECT 2 FORMAT TSV")).toBe("2\n")
    })
  )

  it.scoped("fails a request silent past its time as a timed-out connection", () =>
    Effect.gen(function* () {
      const c = yield* client({ requestTimeoutMs: 300 })
      // The server answers nothing until the statement ends, 2 s later.
      const error = yield* failure(c, "SELECT sleep(2) FORMAT Null")
      expect(error.code).toBe("ETIMEDOUT")
      expect(error.message).toBe("The request to the ClickHouse server timed out.")
      expect(yield* text(c, "SELECT 3 FORMAT TSV")).toBe("3\n")
    })
  )

  it.scoped("keeps a socket for the next statement while it is fresh", () =>
    Effect.gen(function* () {
      const c = yield* client()
      const first = yield* clientPort(c)
      expect(yield* clientPort(c)).toBe(first)
    })
  )

  it.scoped("drops a socket idle past its time even when no timer could run meanwhile", () =>
    Effect.gen(function* () {
      const c = yield* client({ idleSocketMs: 20 })
      const first = yield* clientPort(c)
      // Let the agent take the socket back, then hold the event loop past the idle time,
      // as a busy process does: the agent's own idle timer cannot fire before the next
      // statement starts.
      yield* Effect.promise(() => new Promise((resolve) => setImmediate(resolve)))
      const second = yield* Effect.suspend(() => {
        const until = Date.now() + 60
        while (Date.now() < until) {
          // busy
        }
        return clientPort(c)
      })
      expect(second).not.toBe(first)
    })
  )

  it.scoped("pings the server", () =>
    Effect.gen(function* () {
      const c = yield* client()
      expect(yield* Effect.promise(() => c.ping())).toEqual({ success: true })
    })
  )

  it.scoped("passes on a wrong user as the server's authentication failure", () =>
    Effect.gen(function* () {
      const c = yield* client({ username: "nobody", password: "wrong" })
      const error = yield* failure(c, "SELECT 1")
      expect(error.type).toBe("AUTHENTICATION_FAILED")
    })
  )
})

describe("HttpConnection without a server", () => {
  it.scoped("fails with the socket's own error code, and a ping says so", () =>
    Effect.gen(function* () {
      // A port nothing listens on: the test server's range is far above it.
      const c = yield* clientOn({ url: "http://127.0.0.1:9", username: "default", password: "" })
      const error = yield* failure(c, "SELECT 1")
      expect(error.code).toBe("ECONNREFUSED")
      const ping = yield* Effect.promise(() => c.ping())
      expect(ping.success).toBe(false)
    })
  )
})
