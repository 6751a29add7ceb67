/**
 * An idle engine worker gives back the pages of chDB's library that the engine's start
 * touched (~160 MB resident right after it, most of it code run once), and a query
 * afterwards runs on pages mapped back from the file. Read from outside, as an operator's
 * `/proc/<pid>/smaps` shows them.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import { adminEnv, adminSession, defaultClusterId } from "../clusters/support.js"
import { workerPids } from "../clusters/workerProcesses.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"

const MB = 1024 * 1024

/** Resident bytes of a process's mappings of chDB's library. */
const libraryResident = (pid: number): number => {
  let total = 0
  let inLibrary = false
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inLibrary = line.endsWith("/libchdb.so")
    else if (inLibrary && line.startsWith("Rss:")) total += Number(line.replace(/\D+/g, "")) * 1024
  }
  return total
}

layer(TestServer.layer(freshDataDir("idle-pages"), adminEnv), {
  excludeTestServices: true,
  timeout: 180_000
})("an idle engine worker's library pages", (it) => {
  it.effect("are given back once the worker is idle, and mapped again by the next query", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const clusterId = yield* defaultClusterId(yield* adminSession)
      const query = (sql: string) =>
        call(server, "POST", "/v1/query", {
          token: adminKeyOf(server),
          body: { sql, format: "JSONEachRow" }
        })
      expect((yield* query("SELECT sum(number) AS s FROM numbers(1000)")).text.trim()).toBe(
        '{"s":"499500"}'
      )
      const [worker] = workerPids(clusterId)
      if (worker === undefined) return expect.fail("no engine worker holds the cluster's socket")

      yield* Effect.promise(() =>
        expect
          .poll(() => libraryResident(worker), { timeout: 45_000, interval: 250 })
          .toBeLessThan(24 * MB)
      )
      const reply = yield* query(
        "SELECT count() AS n, uniqExact(toString(number % 7)) AS u FROM numbers(100000)"
      )
      expect(reply.text.trim()).toBe('{"n":"100000","u":"7"}')
      expect(libraryResident(worker)).toBeGreaterThan(0)
    })
  )
})
