/**
 * A cluster's memory size holds for its engine as a whole: four concurrent queries, each
 * within the size alone but together far above it, grow the worker's peak resident memory
 * by about the size at most (its allocator keeps freed pages a while), and what does not
 * fit is refused with a 400. A size with more memory or cores than the host has is refused.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import {
  adminEnv,
  adminSession,
  awaitPhase,
  createCluster,
  expectError,
  keyOf,
  request
} from "../clusters/support.js"
import { rssOf, workerPids } from "../clusters/workerProcesses.js"
import { TestServer, call, freshDataDir } from "../support/server.js"

const SIZE_BYTES = 512 * 1024 ** 2

/** The peak resident memory of a process (VmHWM of /proc/<pid>/status). */
const peakOf = (pid: number): number => {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmHWM:"))
  return Number(line?.replace(/\D+/g, "") ?? "0") * 1024
}

// An array of 15 million numbers: ~256 MiB at its peak (the array doubling from 64 to
// 128 MiB), within 512 MiB alone.
const HEAVY = "SELECT length(groupArray(number)) AS n FROM numbers(15000000)"

layer(
  TestServer.layer(freshDataDir(), {
    ...adminEnv,
    SLUICE_CLUSTER_SIZES: "1:0.5,1:4,2:8,1024:8,1:65536"
  }),
  {
    excludeTestServices: true,
    timeout: 180_000
  }
)("a cluster's memory", (it) => {
  it.effect("four concurrent heavy queries stay within the cluster's size together", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const session = yield* adminSession
      const created = yield* createCluster(session, "small", {
        size: { cpu_cores: 1, memory_gib: 0.5 },
        autoscaling: {
          min_size: { cpu_cores: 1, memory_gib: 0.5 },
          max_size: { cpu_cores: 1, memory_gib: 0.5 }
        }
      })
      yield* awaitPhase(session, created.id, "ready")
      const key = yield* keyOf(session, "small")
      const query = (sql: string) =>
        call(server, "POST", "/v1/query", { token: key, body: { sql, format: "JSONEachRow" } })
      expect((yield* query("SELECT 1 AS one")).text.trim()).toBe('{"one":1}')

      const [worker] = workerPids(created.id)
      const before = rssOf(worker!)
      const replies = yield* Effect.all(
        Array.from({ length: 4 }, () => query(HEAVY)),
        { concurrency: 4 }
      )
      const grown = peakOf(worker!) - before
      // The engine's allocator keeps some freed pages a while: three quarters of the size again (four queries unbounded together grew it by 2.6 times the size).
      expect(grown, `grew by ${Math.round(grown / 1024 ** 2)} MiB`).toBeLessThan(SIZE_BYTES * 1.75)

      const refused = replies.filter((reply) => reply.status !== 200)
      expect(refused.length, replies.map((r) => r.text).join("\n")).toBeGreaterThan(0)
      for (const reply of refused) {
        expect(reply.status, reply.text).toBe(400)
        expect(reply.text).toMatch(/memory limit/i)
      }
      for (const reply of replies.filter((r) => r.status === 200)) {
        expect(reply.text.trim()).toBe('{"n":"15000000"}')
      }
      // The engine keeps answering, in the same worker.
      expect((yield* query("SELECT 2 AS two")).text.trim()).toBe('{"two":2}')
      expect(workerPids(created.id)).toEqual([worker])
    })
  )

  it.effect("a size the host cannot back is refused with a 400 naming the host's limit", () =>
    Effect.gen(function* () {
      const session = yield* adminSession
      const create = (name: string, size: { cpu_cores: number; memory_gib: number }) =>
        request("POST", "/v1/clusters?organization=default", session, {
          name,
          replicas: 1,
          size,
          autoscaling: { min_size: size, max_size: size }
        })
      const cores = expectError(
        yield* create("many-cores", { cpu_cores: 1024, memory_gib: 8 }),
        400,
        "bad_request"
      )
      expect(cores.message).toBe(
        `size asks for 1024 CPU cores; this host has ${os.availableParallelism()}.`
      )
      const memory = expectError(
        yield* create("much-memory", { cpu_cores: 1, memory_gib: 65536 }),
        400,
        "bad_request"
      )
      expect(memory.message).toMatch(
        /^size asks for 65536 GiB of memory; this host has [\d.]+ GiB\.$/
      )
      expect(memory.hint).toMatch(/at most \d+ CPU cores and [\d.]+ GiB of memory/)
      const listed = yield* request("GET", "/v1/clusters?organization=default", session)
      expect(listed.text).not.toMatch(/many-cores|much-memory/)
    })
  )
})
