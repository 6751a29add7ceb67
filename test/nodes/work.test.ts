/**
 * Three sluice processes on one PostgreSQL and one ClickHouse server share their work:
 * a query started through one node is cancelled through another; background work runs
 * on one node and moves when that node is killed; inserts retried with their token
 * through the other nodes after a `kill -9` land once; and nodes restarted one at a time
 * under a steady query load fail no request but those the stopping node held.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber, Schema } from "effect"
import * as http from "node:http"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { eventually } from "../support/eventually.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { TestNodes } from "../support/nodes.js"
import type { Nodes } from "../support/nodes.js"
import { bodyOf } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ORG = "?organization=default"

/** A query that runs until the time limit unless cancelled; `name` finds it on the server. */
const longQuery = (name: string) =>
  `SELECT count() AS ${name} FROM numbers(1e11) WHERE sipHash64(number) = 0`

/** A statement straight on the ClickHouse server, its rows as JSON objects. */
const onClickHouse = (nodes: Nodes, sql: string) =>
  Effect.promise(async () => {
    const response = await fetch(nodes.clickhouse.url, {
      method: "POST",
      body: `${sql} FORMAT JSONEachRow`
    })
    const text = await response.text()
    if (!response.ok) throw new Error(`ClickHouse refused ${sql}: ${text}`)
    return text
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  })

/** How many statements the server runs whose text holds `text`. */
const runningOnServer = (nodes: Nodes, text: string) =>
  Effect.map(
    onClickHouse(
      nodes,
      `SELECT count() AS n FROM system.processes ` +
        `WHERE position(query, '${text}') > 0 AND position(query, 'system.processes') = 0`
    ),
    (rows) => Number(rows[0]?.n)
  )

const keyOn = (nodes: Nodes, i: number, cluster: string, name: string) =>
  Effect.map(
    nodes.callOn(i, "POST", `/v1/keys${ORG}&cluster=${cluster}`, {
      token: nodes.admin.key,
      body: { name, permission: "admin" }
    }),
    (created) => {
      expect(created.status, created.text).toBe(201)
      return bodyOf(CreatedApiKey, created).token
    }
  )

/** A request that may meet a node dying: its connection failing is a reply of status 0. */
const attempt = (request: Effect.Effect<Reply>): Effect.Effect<Reply> =>
  request.pipe(
    Effect.catchAllDefect((defect) =>
      Effect.succeed({
        status: 0,
        headers: new Headers(),
        text: String(defect),
        json: undefined
      })
    )
  )

const leaseLine = (job: string) => `background work '${job}' runs on this node`
const count = (text: string, line: string) => text.split(line).length - 1

const Rows = Schema.Array(Schema.Struct({ n: Schema.NumberFromString }))

layer(
  TestNodes.layer(3, { SLUICE_QUERY_TIMEOUT_SECONDS: "30", SLUICE_URL_INGEST_ALLOW: "127.0.0.1" }),
  { timeout: 300_000 }
)("three nodes share their work", (it) => {
  it.effect(
    "a query started through one node is cancelled through another, in its scope only",
    () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = yield* keyOn(nodes, 0, "default", "canceller")
        const login = yield* nodes.callOn(2, "POST", "/v1/auth/login", {
          body: { email: nodes.admin.email, password: nodes.admin.password }
        })
        expect(login.status, login.text).toBe(200)
        const session = bodyOf(LoginResponse, login).token
        const created = yield* nodes.callOn(1, "POST", `/v1/clusters${ORG}`, {
          token: session,
          body: { name: "second", replicas: 1, size: { cpu_cores: 1, memory_gib: 4 } }
        })
        expect(created.status, created.text).toBe(201)
        const elsewhere = yield* eventually(
          "a key of the second cluster",
          Effect.map(
            nodes.callOn(0, "POST", `/v1/keys${ORG}&cluster=second`, {
              token: session,
              body: { name: "second admin", permission: "admin" }
            }),
            (reply) => (reply.status === 201 ? bodyOf(CreatedApiKey, reply).token : undefined)
          )
        )

        const running = yield* Effect.fork(
          nodes.callOn(0, "POST", "/v1/query", {
            token: key,
            body: { sql: longQuery("cross_node_1"), query_id: "long-1" }
          })
        )
        yield* eventually(
          "the query to run on the server",
          Effect.map(runningOnServer(nodes, "AS cross_node_1 FROM"), (n) => (n > 0 ? n : undefined))
        )
        const cancel = (i: number, token: string, database = "default") =>
          nodes.callOn(i, "POST", `/v1/query/cancel?database=${database}`, {
            token,
            body: { query_id: "long-1" }
          })
        // Another cluster, another database, another name: not theirs to cancel.
        expect((yield* cancel(2, elsewhere)).status).toBe(404)
        expect((yield* cancel(1, key, "nowhere")).status).toBeGreaterThanOrEqual(400)
        const otherName = yield* nodes.callOn(1, "POST", "/v1/query/cancel", {
          token: key,
          body: { query_id: "long-2" }
        })
        expect(otherName.status).toBe(404)
        expect(yield* runningOnServer(nodes, "AS cross_node_1 FROM")).toBe(1)

        const cancelled = yield* cancel(1, key)
        expect(cancelled.status, cancelled.text).toBe(200)
        expect(cancelled.json).toEqual({ cancelled: true })
        const reply = yield* Fiber.join(running)
        expect(reply.status).toBe(400)
        expect(reply.json).toMatchObject({ message: "The query was cancelled." })
        yield* eventually(
          "the query to be gone from the server",
          Effect.map(runningOnServer(nodes, "AS cross_node_1 FROM"), (n) =>
            n === 0 ? true : undefined
          )
        )
        expect((yield* cancel(2, key)).status).toBe(404)
      })
  )

  it.effect(
    "a URL load running on one node is cancelled through another",
    () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = yield* keyOn(nodes, 0, "default", "loader")
        // A file that drips a record every 100 ms for a minute: the load outlives the cancel.
        const files = yield* Effect.acquireRelease(
          Effect.promise(
            () =>
              new Promise<http.Server>((resolve) => {
                const server = http.createServer((_req, res) => {
                  res.writeHead(200, { "content-type": "application/x-ndjson" })
                  let sent = 0
                  const drip = setInterval(() => {
                    res.write(JSON.stringify({ n: ++sent }) + "\n")
                    if (sent === 600) {
                      clearInterval(drip)
                      res.end()
                    }
                  }, 100)
                  res.once("close", () => clearInterval(drip))
                })
                server.listen(0, "127.0.0.1", () => resolve(server))
              })
          ),
          (server) =>
            Effect.promise(() => {
              server.closeAllConnections()
              return new Promise((r) => server.close(r))
            })
        )
        const address = files.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        const source = encodeURIComponent(`http://127.0.0.1:${port}/drip.ndjson`)
        const events = yield* Effect.promise(async () => {
          const reply = await fetch(`${nodes.url(0)}/v1/tables/dripped?url=${source}`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, accept: "application/x-ndjson" }
          })
          const reader = reply.body!.getReader()
          const decoder = new TextDecoder()
          let text = ""
          const cancels: Array<number> = []
          for (;;) {
            const { done, value } = await reader.read()
            if (done) break
            text += decoder.decode(value, { stream: true })
            if (cancels.length === 0 && text.includes("\n")) {
              const started = JSON.parse(text.split("\n")[0]!) as { query_id: string }
              const cancel = (node: number, database = "default") =>
                fetch(`${nodes.url(node)}/v1/query/cancel?database=${database}`, {
                  method: "POST",
                  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
                  body: JSON.stringify({ query_id: started.query_id })
                }).then((r) => r.status)
              cancels.push(await cancel(1, "elsewhere"))
              cancels.push(await cancel(2))
            }
          }
          return { cancels, lines: text.split("\n").filter((l) => l.length > 0) }
        })
        // Another database's caller may not; the load's own scope may, through node 2.
        expect(events.cancels[0]).toBeGreaterThanOrEqual(400)
        expect(events.cancels[1]).toBe(200)
        expect(JSON.parse(events.lines.at(-1)!)).toMatchObject({
          type: "error",
          error: "cancelled",
          message: "The load was cancelled."
        })
      }).pipe(Effect.scoped),
    120_000
  )

  it.effect("the same query id cannot run twice at once through two nodes", () =>
    Effect.gen(function* () {
      const nodes = yield* TestNodes
      const key = yield* keyOn(nodes, 0, "default", "twice")
      const first = yield* Effect.fork(
        nodes.callOn(0, "POST", "/v1/query", {
          token: key,
          body: { sql: longQuery("twice_1"), query_id: "twice" }
        })
      )
      yield* eventually(
        "the first query to run on the server",
        Effect.map(runningOnServer(nodes, "AS twice_1 FROM"), (n) => (n > 0 ? n : undefined))
      )
      const second = yield* nodes.callOn(2, "POST", "/v1/query", {
        token: key,
        body: { sql: "SELECT 1", query_id: "twice" }
      })
      expect(second.status, second.text).toBe(409)
      const cancelled = yield* nodes.callOn(2, "POST", "/v1/query/cancel", {
        token: key,
        body: { query_id: "twice" }
      })
      expect(cancelled.status).toBe(200)
      expect((yield* Fiber.join(first)).status).toBe(400)
    })
  )

  it.effect("background work runs on one node and moves to another when that node is killed", () =>
    Effect.gen(function* () {
      const nodes = yield* TestNodes
      const holders = (job: string) =>
        Array.from({ length: nodes.size }, (_, i) => i).filter(
          (i) => nodes.isUp(i) && count(nodes.output(i), leaseLine(job)) > 0
        )
      for (const job of ["idling", "cluster-metrics", "request-log-retention"]) {
        const held = yield* eventually(
          `a node to run '${job}'`,
          Effect.sync(() => (holders(job).length > 0 ? holders(job) : undefined))
        )
        expect(held, job).toHaveLength(1)
      }
      const [holder] = holders("idling")
      const before = Array.from({ length: nodes.size }, (_, i) =>
        count(nodes.output(i), leaseLine("idling"))
      )
      yield* nodes.kill(holder!, "SIGKILL")
      const taker = yield* eventually(
        "another node to take 'idling'",
        Effect.sync(() => {
          const took = Array.from({ length: nodes.size }, (_, i) => i).filter(
            (i) => nodes.isUp(i) && count(nodes.output(i), leaseLine("idling")) > before[i]!
          )
          return took.length > 0 ? took : undefined
        }),
        { attempts: 200, pauseMs: 100 }
      )
      expect(taker).toHaveLength(1)
      expect(taker[0]).not.toBe(holder)
      yield* nodes.restart(holder!)
      // Back, it finds the work held and takes none of it.
      const back = nodes.output(holder!)
      expect(count(back, leaseLine("idling"))).toBe(0)
    })
  )

  it.effect(
    "a remote write acknowledged by a node killed right after is read through the others",
    () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const login = yield* nodes.callOn(0, "POST", "/v1/auth/login", {
          body: { email: nodes.admin.email, password: nodes.admin.password }
        })
        const session = bodyOf(LoginResponse, login).token
        const installed = yield* nodes.callOn(
          0,
          "PUT",
          `/v1/apps/metrics-app${ORG}&cluster=default`,
          {
            token: session
          }
        )
        expect(installed.status, installed.text).toBe(200)
        yield* eventually(
          "the metrics-app on node 2",
          Effect.map(
            nodes.callOn(2, "GET", "/metrics-compat/api/v1/labels", { token: nodes.admin.key }),
            (reply) => (reply.status === 200 ? true : undefined)
          )
        )
        const at = Date.now() - 10_000
        const written = yield* nodes.callOn(2, "POST", "/metrics-compat/api/v1/write", {
          token: nodes.admin.key,
          rawBody: remoteWriteBody([
            { labels: { __name__: "acked_before_kill", job: "nodes" }, samples: [[at, 42]] }
          ]),
          headers: REMOTE_WRITE_HEADERS
        })
        expect(written.status, written.text).toBeLessThan(300)
        yield* nodes.kill(2, "SIGKILL")
        const read = yield* nodes.callOn(
          0,
          "GET",
          `/metrics-compat/api/v1/query?query=acked_before_kill&time=${(at + 1000) / 1000}`,
          { token: nodes.admin.key }
        )
        expect(read.status, read.text).toBe(200)
        expect(read.json).toMatchObject({
          data: {
            result: [
              { metric: { __name__: "acked_before_kill" }, value: [expect.anything(), "42"] }
            ]
          }
        })
        yield* nodes.restart(2)
      }),
    120_000
  )

  it.effect(
    "kill -9 during four clients' inserts: retried with their tokens, every row lands once",
    () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = yield* keyOn(nodes, 0, "default", "inserter")
        const table = "/v1/tables/landed"
        const first = yield* nodes.callOn(0, "POST", table, {
          token: key,
          body: [{ client: -1, batch: -1, row: -1 }]
        })
        expect(first.status, first.text).toBe(200)
        const BATCHES = 40
        const ROWS = 50
        let acknowledged = 0
        let retries = 0
        const insertBatch = (client: number, batch: number) =>
          Effect.gen(function* () {
            const body = Array.from({ length: ROWS }, (_, row) => ({ client, batch, row }))
            const token = `c${client}-b${batch}`
            for (let tries = 0; tries < 20; tries++) {
              const reply = yield* attempt(
                nodes.call("POST", `${table}?insert_deduplication_token=${token}`, {
                  token: key,
                  body
                })
              )
              if (reply.status === 200) {
                expect(reply.json).toEqual({ inserted: ROWS })
                acknowledged++
                return
              }
              // Only a dying node's refusals are retried: a 4xx is the test's own mistake.
              expect([0, 500, 502, 503], reply.text).toContain(reply.status)
              retries++
            }
            throw new Error(`batch ${token} was never acknowledged`)
          })
        const clients = yield* Effect.fork(
          Effect.forEach(
            [0, 1, 2, 3],
            (client) =>
              Effect.forEach(
                Array.from({ length: BATCHES }, (_, b) => b),
                (batch) => insertBatch(client, batch),
                { discard: true }
              ),
            { concurrency: "unbounded", discard: true }
          )
        )
        yield* eventually(
          "a quarter of the batches to be acknowledged",
          Effect.sync(() => (acknowledged >= BATCHES ? true : undefined)),
          { attempts: 600, pauseMs: 50 }
        )
        yield* nodes.kill(1, "SIGKILL")
        yield* Fiber.join(clients)
        expect(acknowledged).toBe(4 * BATCHES)

        const counted = yield* nodes.call("POST", "/v1/query", {
          token: key,
          body: {
            sql:
              "SELECT count() AS n FROM landed WHERE client >= 0 UNION ALL " +
              "SELECT uniqExact(client, batch, row) AS n FROM landed WHERE client >= 0",
            format: "JSONEachRow"
          }
        })
        expect(counted.status, counted.text).toBe(200)
        const rows = Schema.decodeUnknownSync(Rows)(
          counted.text
            .split("\n")
            .filter((line) => line.length > 0)
            .map((line) => JSON.parse(line))
        )
        expect(rows.map((r) => r.n)).toEqual([4 * BATCHES * ROWS, 4 * BATCHES * ROWS])
        yield* Effect.logInfo(`inserts retried after the kill: ${retries}`)
        yield* nodes.restart(1)
      }),
    240_000
  )

  it.effect(
    "nodes restarted one at a time under a steady query load: only the stopping node's requests fail",
    () =>
      Effect.gen(function* () {
        const nodes = yield* TestNodes
        const key = yield* keyOn(nodes, 0, "default", "steady")
        let restarting = -1
        let stop = false
        let next = 0
        const answered: Array<number> = []
        const failed: Array<{ node: number; status: number; text: string; restarting: boolean }> =
          []
        const client = Effect.gen(function* () {
          while (!stop) {
            const up = Array.from({ length: nodes.size }, (_, i) => i).filter((i) => nodes.isUp(i))
            const node = up[next++ % up.length]!
            const during = restarting === node
            const reply = yield* attempt(
              nodes.callOn(node, "POST", "/v1/query", {
                token: key,
                body: { sql: "SELECT sum(number) AS s FROM numbers(1000)" }
              })
            )
            // A steady load, not a flood: the nodes restarting share the two cores with it.
            yield* Effect.promise(() => new Promise((r) => setTimeout(r, 20)))
            if (reply.status === 200) answered.push(node)
            else
              failed.push({
                node,
                status: reply.status,
                text: reply.text.slice(0, 200),
                restarting: during || restarting === node
              })
          }
        })
        const load = yield* Effect.fork(
          Effect.all([client, client, client, client], {
            concurrency: "unbounded",
            discard: true
          })
        )
        for (let i = 0; i < nodes.size; i++) {
          const before = answered.length
          yield* eventually(
            "the load to be answered",
            Effect.sync(() => (answered.length > before + 20 ? true : undefined)),
            { attempts: 600, pauseMs: 50 }
          )
          restarting = i
          yield* nodes.restart(i)
          restarting = -1
          const after = answered.filter((n) => n === i).length
          yield* eventually(
            `node ${i} to answer again`,
            Effect.sync(() => (answered.filter((n) => n === i).length > after ? true : undefined)),
            { attempts: 600, pauseMs: 50 }
          )
        }
        stop = true
        yield* Fiber.join(load)
        expect(failed.filter((f) => !f.restarting)).toEqual([])
        expect(answered.length).toBeGreaterThan(60)
        yield* Effect.logInfo(
          `steady load: ${answered.length} answered, ${failed.length} failed on a stopping node`
        )
      }),
    // Three restarts under load on two busy cores.
    600_000
  )
})
