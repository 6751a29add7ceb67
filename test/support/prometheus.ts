/**
 * A real Prometheus (Debian's 2.42 in .ci/run) to compare the metrics-app with: on a free
 * loopback port, its remote-write receiver on, its data in a temporary directory, killed
 * and removed with the scope. The compliance suite and `npm run bench metrics` share it.
 */
import { Effect } from "effect"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { eventually } from "./eventually.js"

export const hasPrometheus = () => spawnSync("prometheus", ["--version"]).status === 0

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

/** Prometheus on loopback with the remote-write receiver, killed with the scope. */
export const startPrometheus = Effect.gen(function* () {
  const port = yield* freePort()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prometheus-"))
  fs.writeFileSync(path.join(dir, "prometheus.yml"), "global:\n  evaluation_interval: 1m\n")
  const child = yield* Effect.acquireRelease(
    Effect.sync(() =>
      spawn(
        "prometheus",
        [
          `--config.file=${path.join(dir, "prometheus.yml")}`,
          `--storage.tsdb.path=${path.join(dir, "data")}`,
          "--storage.tsdb.retention.time=100y",
          `--web.listen-address=127.0.0.1:${port}`,
          "--web.enable-remote-write-receiver"
        ],
        { stdio: "ignore" }
      )
    ),
    (process) =>
      Effect.sync(() => {
        process.kill("SIGKILL")
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
