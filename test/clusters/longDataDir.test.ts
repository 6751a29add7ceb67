/**
 * A data directory too long for a Unix socket inside it: `sun_path` takes 107 bytes on
 * Linux, and `<dir>/run/engine-<uuid>.sock` is 52 more than the directory. The engine
 * sockets then go to a private temp directory. libuv used to cut such a path short, so
 * the socket was not where its name said, and a worker once killed never listened again
 * (its stale socket, under the cut name, was never removed: EADDRINUSE on every restart).
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as path from "node:path"
import { eventually } from "../support/eventually.js"
import { adminKeyOf, call, freshDataDir, TestServer } from "../support/server.js"
import { workerPids } from "./workerProcesses.js"

// Over 80 bytes: an engine socket inside it would need more than 130.
const dataDir = path.join(
  freshDataDir("long"),
  "a-directory-name-long-enough-to-push-socket-paths-past-the-limit"
)

layer(TestServer.layer(dataDir), { excludeTestServices: true, timeout: 180_000 })((it) => {
  it.effect("serves its cluster, and again after the engine worker is killed", () =>
    Effect.gen(function* () {
      expect(dataDir.length).toBeGreaterThan(80)
      const server = yield* TestServer
      const token = adminKeyOf(server)
      const select = (n: number) =>
        Effect.map(
          call(server, "POST", "/v1/query", {
            token,
            body: { sql: `SELECT ${n} AS n`, format: "JSONEachRow" }
          }),
          (reply) => reply.text.trim()
        )
      expect(yield* select(1)).toBe(`{"n":1}`)

      const keys = yield* call(server, "GET", "/v1/keys", { token })
      const clusterId = (keys.json as { readonly cluster: { readonly id: string } }).cluster.id
      // Found by the socket's full name: the path was not cut short.
      const [worker] = workerPids(clusterId)
      expect(worker).toBeDefined()
      process.kill(worker!, "SIGKILL")
      yield* eventually(
        "a new engine worker",
        Effect.sync(() => {
          const pids = workerPids(clusterId)
          return pids.length === 1 && pids[0] !== worker ? true : undefined
        }),
        { attempts: 600, pauseMs: 100 }
      )
      expect(yield* select(2)).toBe(`{"n":2}`)
    })
  )
})
