/**
 * A real Prometheus (Debian's 2.42, on PATH; .ci/run installs it) and its promtool, for
 * the tests and `npm run bench metrics`: started on a loopback port with the given
 * configuration, its data in a temporary directory, killed and removed with the scope.
 */
import { Effect, Schema } from "effect"
import { execFile, spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { eventually } from "./eventually.js"

export const hasPrometheus =
  spawnSync("prometheus", ["--version"]).status === 0 &&
  spawnSync("promtool", ["--version"]).status === 0

export const freePort = () =>
  Effect.promise(
    () =>
      new Promise<number>((resolve) => {
        const probe = net.createServer().listen(0, "127.0.0.1", () => {
          const address = probe.address()
          probe.close(() => resolve(typeof address === "object" && address ? address.port : 0))
        })
      })
  )

/** `config` is prometheus.yml; `port` is where it listens (its own /metrics is there). */
export const startPrometheus = (port: number, config: string, flags: ReadonlyArray<string> = []) =>
  Effect.gen(function* () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prometheus-"))
    fs.writeFileSync(path.join(dir, "prometheus.yml"), config)
    const child = yield* Effect.acquireRelease(
      Effect.sync(() =>
        spawn(
          "prometheus",
          [
            `--config.file=${path.join(dir, "prometheus.yml")}`,
            `--storage.tsdb.path=${path.join(dir, "data")}`,
            `--web.listen-address=127.0.0.1:${port}`,
            ...flags
          ],
          { stdio: "ignore" }
        )
      ),
      (child) =>
        Effect.sync(() => {
          child.kill("SIGKILL")
          fs.rmSync(dir, { recursive: true, force: true })
        })
    )
    const url = `http://127.0.0.1:${port}`
    yield* eventually(
      "prometheus to be ready",
      Effect.promise(() =>
        fetch(`${url}/-/ready`).then(
          (r) => (r.ok ? true : undefined),
          () => undefined
        )
      ),
      { attempts: 600, pauseMs: 100 }
    )
    return { url, pid: child.pid }
  })

/** The reference of the compliance comparison: a remote-write receiver that keeps everything. */
export const startReceiver = Effect.flatMap(freePort(), (port) =>
  startPrometheus(port, "global:\n  evaluation_interval: 1m\n", [
    "--storage.tsdb.retention.time=100y",
    "--web.enable-remote-write-receiver"
  ])
)

/**
 * A success of the Prometheus HTTP API (`query`, `query_range`), as both servers answer
 * it; sluice's `explain=true` adds each selector's statements.
 */
export const ApiReply = Schema.Struct({
  status: Schema.Literal("success"),
  data: Schema.Struct({
    resultType: Schema.String,
    result: Schema.Array(
      Schema.Struct({
        metric: Schema.Record({ key: Schema.String, value: Schema.String }),
        value: Schema.optional(Schema.Tuple(Schema.Number, Schema.String)),
        values: Schema.optional(Schema.Array(Schema.Tuple(Schema.Number, Schema.String)))
      })
    ),
    explain: Schema.optional(Schema.Array(Schema.Struct({ sql: Schema.Array(Schema.String) })))
  })
})

/** `GET <base>/api/v1/<endpoint>?<params>`, its reply decoded as `ApiReply`. */
export const askApi = (
  base: string,
  endpoint: string,
  params: Record<string, string>,
  token?: string
) =>
  Effect.promise(async () => {
    const response = await fetch(`${base}/api/v1/${endpoint}?${new URLSearchParams(params)}`, {
      headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
    })
    return Schema.decodeUnknownSync(ApiReply)(await response.json())
  })

/** POSTs `body` (a remote write) and answers the status. */
export const postWrite = (url: string, body: Uint8Array, headers: Record<string, string>) =>
  Effect.promise(() => fetch(url, { method: "POST", body, headers }).then((r) => r.status))

/** promtool's stdout; run asynchronously, so the in-process server it asks can answer. */
export const promtool = (args: ReadonlyArray<string>) =>
  Effect.promise(
    () =>
      new Promise<{ readonly code: number; readonly stdout: string; readonly stderr: string }>(
        (resolve) => {
          execFile("promtool", [...args], { timeout: 60_000 }, (error, stdout, stderr) =>
            resolve({
              code: error === null ? 0 : typeof error.code === "number" ? error.code : 1,
              stdout,
              stderr
            })
          )
        }
      )
  )
