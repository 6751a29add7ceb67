/**
 * `npm run bench propagation`: how long a change made through one node takes to be seen
 * by another (two nodes on one PostgreSQL and one ClickHouse test server). Each round
 * makes the change through node 0 and asks node 1, back to back, until it answers as
 * after the change: from node 0's answer to node 1's first answer that shows it. Node 1
 * has read the old state into its cache first, so what is timed is the notification,
 * not a cache that was empty anyway. Key revocation and app uninstall, p50/p99/max,
 * beside what one answer of node 1 takes with nothing changed: the time includes at least
 * one answer, and "seen by the first answer" counts the rounds where no second was needed.
 */
import { performance } from "node:perf_hooks"
import { Effect, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { startNodes } from "../support/nodes.js"
import type { Nodes } from "../support/nodes.js"
import type { Reply } from "../support/server.js"

const ROUNDS = 200
const IN_DEFAULT = "?organization=default&cluster=default"

const ok = (what: string, reply: Reply, status = 200) => {
  if (reply.status !== status) throw new Error(`${what}: ${reply.status} ${reply.text}`)
  return reply
}

interface Sample {
  readonly ms: number
  /** How many answers it took: 1 when the first one asked after the change showed it. */
  readonly looks: number
}

/** Milliseconds from now until `look` answers as `seen` says (asked back to back). */
const timeUntil = (look: Effect.Effect<Reply>, seen: (reply: Reply) => boolean) =>
  Effect.gen(function* () {
    const from = performance.now()
    for (let looks = 1; looks <= 10_000; looks++) {
      if (seen(yield* look)) return { ms: performance.now() - from, looks }
    }
    throw new Error("the change was never seen")
  })

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN

const report = (what: string, samples: ReadonlyArray<Sample>) => {
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b)
  const ms = (n: number) => `${n.toFixed(1)} ms`
  const first = samples.filter((s) => s.looks === 1).length
  console.log(
    `${what.padEnd(24)} n=${sorted.length}  p50 ${ms(percentile(sorted, 50))}  ` +
      `p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted[sorted.length - 1] ?? NaN)}  ` +
      `seen by the first answer: ${first}/${samples.length}`
  )
}

/** One answer of node 1 with nothing changed: what a single look costs here. */
const oneAnswer = (nodes: Nodes) =>
  Effect.gen(function* () {
    const samples: Array<Sample> = []
    const query = nodes.callOn(1, "POST", "/v1/query", {
      token: nodes.admin.key,
      body: { sql: "SELECT 1 AS one" }
    })
    for (let round = 0; round < ROUNDS; round++) {
      samples.push(yield* timeUntil(query, (r) => r.status === 200))
    }
    return samples
  })

const keyRevocation = (nodes: Nodes) =>
  Effect.gen(function* () {
    const samples: Array<Sample> = []
    const query = (token: string) =>
      nodes.callOn(1, "POST", "/v1/query", { token, body: { sql: "SELECT 1 AS one" } })
    for (let round = 0; round < ROUNDS; round++) {
      const created = ok(
        "create key",
        yield* nodes.callOn(0, "POST", `/v1/keys${IN_DEFAULT}`, {
          token: nodes.admin.key,
          body: { name: `bench-${round}`, permission: "read_only" }
        }),
        201
      )
      const key = Schema.decodeUnknownSync(CreatedApiKey)(created.json)
      ok("use key on node 1", yield* query(key.token))
      ok(
        "revoke",
        yield* nodes.callOn(0, "DELETE", `/v1/keys/${key.id}${IN_DEFAULT}`, {
          token: nodes.admin.key
        })
      )
      samples.push(yield* timeUntil(query(key.token), (r) => r.status === 401))
    }
    return samples
  })

const appUninstall = (nodes: Nodes) =>
  Effect.gen(function* () {
    const login = ok(
      "login",
      yield* nodes.callOn(0, "POST", "/v1/auth/login", {
        body: { email: nodes.admin.email, password: nodes.admin.password }
      })
    )
    const session = Schema.decodeUnknownSync(LoginResponse)(login.json).token
    const labels = nodes.callOn(1, "GET", "/metrics-compat/api/v1/labels", {
      token: nodes.admin.key
    })
    const app = (method: string) =>
      nodes.callOn(0, method, `/v1/apps/metrics-app${IN_DEFAULT}`, { token: session })
    const samples: Array<Sample> = []
    for (let round = 0; round < ROUNDS; round++) {
      ok("install", yield* app("PUT"))
      yield* timeUntil(labels, (r) => r.status === 200)
      ok("uninstall", yield* app("DELETE"))
      samples.push(yield* timeUntil(labels, (r) => r.status === 404))
    }
    return samples
  })

export const propagation = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const nodes = yield* startNodes(2)
        console.log(`two nodes, ${ROUNDS} changes each, made through node 0, seen on node 1`)
        report("one answer (baseline)", yield* oneAnswer(nodes))
        report("key revocation", yield* keyRevocation(nodes))
        report("app uninstall", yield* appUninstall(nodes))
      })
    )
  )
