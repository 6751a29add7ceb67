/**
 * Starts the whole embedded server in-process (random port, given data dir) inside the
 * current scope, and a small fetch-based client for black-box requests.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { HttpServer } from "@effect/platform"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import type { Scope } from "effect"
import { testServerLive } from "../../layers/Test.js"
import { FirstStart } from "../../domain/FirstStart.js"
import { controlPlaneSettings } from "./controlPlane.js"
import { engineSettings } from "./engineSettings.js"

// Removed when the process exits (a server reopened on its directory within the process
// still finds it): each holds a control plane and engine data, 100 MB and more. Vitest
// stops test processes without that event: there the run's temp root goes at its end
// (`testRunTmp.ts`); this serves the benchmarks.
const madeDirs = new Set<string>()
const removeMadeDirs = () => {
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true })
}

export const freshDataDir = (label = "sluice") => {
  if (madeDirs.size === 0) process.once("exit", removeMadeDirs)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`))
  madeDirs.add(dir)
  return dir
}

export interface RunningServer {
  readonly url: string
  readonly firstStart: Context.Tag.Service<typeof FirstStart>
  /** The built layer's services, for tests that arrange state behind the API. */
  readonly context: Context.Context<Layer.Layer.Success<ReturnType<typeof testServerLive>>>
}

export const startServer = (
  dataDir: string,
  env: Readonly<Record<string, string>> = {}
): Effect.Effect<RunningServer, unknown, Scope.Scope> =>
  Effect.gen(function* () {
    const controlPlane = yield* controlPlaneSettings(dataDir)
    const context = yield* Layer.build(
      testServerLive({ dataDir, env: { ...controlPlane, ...engineSettings(), ...env } })
    )
    const address = Context.get(context, HttpServer.HttpServer).address
    if (address._tag !== "TcpAddress") return yield* Effect.die("expected a TCP address")
    const firstStart = Context.get(context, FirstStart)
    return { url: `http://127.0.0.1:${address.port}`, firstStart, context }
  })

/** The bootstrap admin key of a first start. */
export const adminKeyOf = (server: RunningServer) =>
  Option.match(server.firstStart, {
    onNone: () => {
      throw new Error("not a first start")
    },
    onSome: (c) => Redacted.value(c.apiKey)
  })

export interface Reply {
  readonly status: number
  readonly headers: Headers
  readonly text: string
  readonly json: unknown
}

export const call = (
  server: { readonly url: string },
  method: string,
  pathAndQuery: string,
  options: {
    readonly token?: string
    readonly body?: unknown
    readonly rawBody?: string | Uint8Array
    readonly headers?: Record<string, string>
  } = {}
): Effect.Effect<Reply> =>
  Effect.promise(async () => {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    let body: string | Uint8Array | undefined = options.rawBody
    if (options.body !== undefined) {
      body = JSON.stringify(options.body)
      headers["content-type"] ??= "application/json"
    }
    const response = await fetch(server.url + pathAndQuery, {
      method,
      headers,
      ...(body === undefined ? {} : { body })
    })
    const text = await response.text()
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      json = undefined
    }
    return { status: response.status, headers: response.headers, text, json }
  })

/**
 * A reply's JSON body decoded with a schema of the contract (or a part of one): a body
 * that does not have the shape fails the test instead of passing through a cast.
 */
export const bodyOf = <A, I>(schema: Schema.Schema<A, I>, reply: Reply): A =>
  Schema.decodeUnknownSync(schema)(reply.json)

/** The running server as a service, for `layer(...)` blocks that share one server. */
export class TestServer extends Context.Tag("test/TestServer")<TestServer, RunningServer>() {
  static readonly layer = (dataDir = freshDataDir(), env: Readonly<Record<string, string>> = {}) =>
    Layer.scoped(TestServer, startServer(dataDir, env)).pipe(Layer.orDie)
}

/** Creates `name` in the first-start cluster with the admin key; fails the test unless 201. */
export const createDatabase = (server: RunningServer, name: string) =>
  Effect.flatMap(
    call(server, "POST", "/v1/databases", { token: adminKeyOf(server), body: { name } }),
    (reply) =>
      reply.status === 201
        ? Effect.void
        : Effect.die(new Error(`creating database ${name}: ${reply.status} ${reply.text}`))
  )
