/**
 * Several sluice processes as one service, as a team runs them behind a load balancer:
 * `npm start`'s command N times, each with its own data directory and port, all on ONE
 * PostgreSQL database (made for the call on `SLUICE_TEST_POSTGRES_URL`) and ONE
 * ClickHouse test server (`clickhouseServer.ts`, access control off). Node 0 starts first
 * and bootstraps; the others start together once it is up. `call` spreads requests
 * round-robin over the nodes that are up, as a load balancer with health checks does.
 * Everything stops with the scope.
 */
import type { ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import { launchServerProcess, stopServerProcess } from "../bench/serverProcess.js"
import type { StartedProcess } from "../bench/serverProcess.js"
import { startClickHouseServer } from "./clickhouseServer.js"
import type { ClickHouseServer } from "./clickhouseServer.js"
import { adminUrl, onServer } from "./controlPlane.js"
import { call as callServer, freshDataDir } from "./server.js"
import type { Reply } from "./server.js"

export type CallOptions = NonNullable<Parameters<typeof callServer>[3]>

export interface Nodes {
  readonly size: number
  /** Node `i`'s base URL; it keeps its port across restarts. */
  readonly url: (i: number) => string
  /** The first start's admin credentials. */
  readonly admin: { readonly key: string; readonly email: string; readonly password: string }
  /** The next node that is up, round-robin. */
  readonly call: (
    method: string,
    pathAndQuery: string,
    options?: CallOptions
  ) => Effect.Effect<Reply>
  /** Node `i`, whether up or not. */
  readonly callOn: (
    i: number,
    method: string,
    pathAndQuery: string,
    options?: CallOptions
  ) => Effect.Effect<Reply>
  /** Sends `signal` to node `i` and waits for its process to be gone. */
  readonly kill: (i: number, signal?: NodeJS.Signals) => Effect.Effect<void>
  /** Stops node `i` if it runs (SIGTERM), then starts it again on its directory and port. */
  readonly restart: (i: number) => Effect.Effect<void, Error>
  readonly isUp: (i: number) => boolean
  readonly pid: (i: number) => number
  /** The end of what node `i` printed, for a failing test's message. */
  readonly output: (i: number) => string
  readonly clickhouse: ClickHouseServer
  /** The control plane's database, as `SLUICE_DATABASE_URL` takes it. */
  readonly databaseUrl: string
}

const ADMIN_EMAIL = "admin@localhost"
const ADMIN_PASSWORD = "nodes-admin-password-8c1f"

interface Node {
  readonly dataDir: string
  process: StartedProcess
  up: boolean
}

const portOf = (url: string) => new URL(url).port

/**
 * Not under the `external` project's prefix: its set-up drops every such database, and
 * another run of it may start while these nodes run. Dropped with the scope; `nodesSetup.ts`
 * drops those a killed run left (the ones nothing is connected to).
 */
export const nodesDatabasePrefix = "sluice_nodes_"

const ownDatabase = Effect.gen(function* () {
  const name = nodesDatabasePrefix + randomBytes(6).toString("hex")
  yield* Effect.acquireRelease(onServer(`CREATE DATABASE ${name}`), () =>
    onServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  )
  const url = new URL(adminUrl())
  url.pathname = `/${name}`
  return url.toString()
})

/** `size` nodes (at least 1); `env` adds settings to every node. */
export const startNodes = (
  size: number,
  env: Readonly<Record<string, string>> = {}
): Effect.Effect<Nodes, Error, Scope.Scope> =>
  Effect.gen(function* () {
    const clickhouse = yield* startClickHouseServer
    const databaseUrl = yield* ownDatabase
    const shared = {
      SLUICE_DATABASE_URL: databaseUrl,
      SLUICE_CLICKHOUSE_URL: clickhouse.url,
      SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off",
      SLUICE_ADMIN_EMAIL: ADMIN_EMAIL,
      SLUICE_ADMIN_PASSWORD: ADMIN_PASSWORD,
      ...env
    }
    const nodes: Array<Node> = []
    const children = new Set<ChildProcess>()
    yield* Effect.addFinalizer(() =>
      Effect.forEach(children, (child) => stopServerProcess(child), { discard: true })
    )
    const launch = (dataDir: string, port: string) =>
      Effect.tap(launchServerProcess(dataDir, { ...shared, SLUICE_PORT: port }), (started) =>
        Effect.sync(() => {
          children.add(started.child)
          started.child.once("exit", () => children.delete(started.child))
        })
      )
    const first = freshDataDir("sluice-node-0")
    const bootstrap = yield* launch(first, "0")
    if (bootstrap.key === undefined) {
      return yield* Effect.fail(new Error(`node 0 did not bootstrap:\n${bootstrap.output()}`))
    }
    nodes.push({ dataDir: first, process: bootstrap, up: true })
    const others = yield* Effect.forEach(
      Array.from({ length: size - 1 }, (_, i) => freshDataDir(`sluice-node-${i + 1}`)),
      (dataDir) => Effect.map(launch(dataDir, "0"), (process) => ({ dataDir, process, up: true })),
      { concurrency: "unbounded" }
    )
    nodes.push(...others)

    const node = (i: number) => {
      const found = nodes[i]
      if (found === undefined) throw new Error(`no node ${i} (there are ${nodes.length})`)
      return found
    }
    let next = 0
    const call: Nodes["call"] = (method, pathAndQuery, options) =>
      Effect.suspend(() => {
        for (let tried = 0; tried < nodes.length; tried++) {
          const i = next++ % nodes.length
          if (node(i).up) return callServer(node(i).process, method, pathAndQuery, options)
        }
        return Effect.dieMessage("no node is up")
      })
    const kill = (i: number, signal: NodeJS.Signals = "SIGTERM") =>
      Effect.suspend(() => {
        node(i).up = false
        return stopServerProcess(node(i).process.child, signal)
      })
    const restart = (i: number) =>
      Effect.gen(function* () {
        const target = node(i)
        yield* kill(i)
        target.process = yield* launch(target.dataDir, portOf(target.process.url))
        target.up = true
      })
    return {
      size: nodes.length,
      url: (i) => node(i).process.url,
      admin: { key: bootstrap.key, email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
      call,
      callOn: (i, method, pathAndQuery, options) =>
        Effect.suspend(() => callServer(node(i).process, method, pathAndQuery, options)),
      kill,
      restart,
      isUp: (i) => node(i).up,
      pid: (i) => node(i).process.child.pid ?? 0,
      output: (i) => node(i).process.output(),
      clickhouse,
      databaseUrl
    } satisfies Nodes
  })

/** One set of nodes shared by a `layer(...)` block. */
export class TestNodes extends Context.Tag("test/TestNodes")<TestNodes, Nodes>() {
  static readonly layer = (size: number, env: Readonly<Record<string, string>> = {}) =>
    Layer.scoped(TestNodes, startNodes(size, env)).pipe(Layer.orDie)
}
