/**
 * A real ClickHouse server on loopback for the tests (and `npm run clickhouse-server`):
 * chDB's engine library serves ClickHouse's HTTP and native interfaces when its
 * command-line entry point is called with listen ports, which `clickhouse-server.py`
 * does. Each server gets fresh ports and a fresh directory, and goes with its scope.
 * It is unauthenticated (user `default`, no password) and cannot run `CREATE USER` or
 * `GRANT`: its user cannot manage access.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import { createServer } from "node:net"
import * as path from "node:path"
import { Context, Effect, Layer } from "effect"
import { eventually } from "./eventually.js"
import { freshDataDir } from "./server.js"

export interface ClickHouseServer {
  /** `http://127.0.0.1:<port>`: what `SLUICE_CLICKHOUSE_URL` takes. */
  readonly url: string
  readonly tcpPort: number
  readonly dataDir: string
}

const launcher = path.join(import.meta.dirname, "clickhouse-server.py")

const engineLibrary = () => {
  const pkg = createRequire(import.meta.url).resolve("@chdb/lib-linux-x64-gnu/package.json")
  return path.join(path.dirname(pkg), "libchdb.so")
}

/** A port free right now (the OS's pick for port 0). */
const freePort = Effect.async<number, Error>((resume) => {
  const probe = createServer()
  probe.once("error", (e) => resume(Effect.fail(e)))
  probe.listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})

const answersPing = (url: string) =>
  Effect.promise(() =>
    fetch(`${url}/ping`).then(
      (r) => (r.ok ? true : undefined),
      () => undefined
    )
  )

/**
 * `config`: the server's configuration file (XML) for the ports it got and the path it is
 * written to, such as a `remote_servers` cluster, or users (`users_config` naming the file
 * itself); the library's defaults without it.
 */
export const startClickHouseServerWith = (options: {
  readonly config?: (where: { readonly tcpPort: number; readonly file: string }) => string
}) =>
  Effect.gen(function* () {
    const library = engineLibrary()
    if (!fs.existsSync(library)) {
      return yield* Effect.fail(new Error(`chDB's engine library is not at ${library}`))
    }
    const dataDir = freshDataDir("clickhouse")
    const httpPort = yield* freePort
    const tcpPort = yield* Effect.repeat(freePort, { until: (port) => port !== httpPort })
    const url = `http://127.0.0.1:${httpPort}`
    const config = options.config === undefined ? [] : [path.join(dataDir, "config.xml")]
    if (options.config !== undefined) {
      fs.mkdirSync(dataDir, { recursive: true })
      fs.writeFileSync(config[0]!, options.config({ tcpPort, file: config[0]! }))
    }
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(
          "python3",
          [launcher, library, dataDir, String(httpPort), String(tcpPort), ...config],
          { stdio: ["pipe", "ignore", "pipe"] }
        )
      ),
      (child) =>
        Effect.async<void>((resume) => {
          if (child.exitCode !== null || child.signalCode !== null) return resume(Effect.void)
          child.once("exit", () => resume(Effect.void))
          child.kill("SIGTERM")
        }).pipe(
          Effect.andThen(() => fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 }))
        )
    )
    let stderr = ""
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = () => child.exitCode !== null || child.signalCode !== null
    yield* eventually(
      `the ClickHouse server at ${url}`,
      Effect.flatMap(answersPing(url), (up) =>
        up === true
          ? Effect.succeed(true)
          : exited()
            ? Effect.fail(new Error(`the ClickHouse server did not start: ${stderr.trim()}`))
            : Effect.succeed(undefined)
      ),
      { attempts: 600, pauseMs: 50 }
    )
    return { url, tcpPort, dataDir } satisfies ClickHouseServer
  })

export const startClickHouseServer = startClickHouseServerWith({})

/** One server shared by a `layer(...)` block. */
export class ClickHouseTestServer extends Context.Tag("test/ClickHouseTestServer")<
  ClickHouseTestServer,
  ClickHouseServer
>() {
  static readonly layer = Layer.scoped(ClickHouseTestServer, startClickHouseServer).pipe(
    Layer.orDie
  )
}
