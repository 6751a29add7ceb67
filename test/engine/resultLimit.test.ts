/**
 * A result larger than the query result limit is a 400 naming the limit, in every format
 * (streamed or produced whole); the worker's memory goes back down and the cluster keeps
 * answering, from the same worker.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Cluster } from "../../domain/api/ClusterModels.js"
import { adminEnv, adminSession, keyOf } from "../clusters/support.js"
import { rssOf, workerPids } from "../clusters/workerProcesses.js"
import { TestServer, bodyOf, call, freshDataDir } from "../support/server.js"

const LIMIT = 4 * 1024 * 1024

const FORMATS = ["JSONEachRow", "TSV", "CSVWithNames", "TSVWithNames", "JSONCompact", "JSON"]

// About 1 GB of text in any format: far past the limit.
const BIG = "SELECT number, repeat('x', 100) AS pad FROM numbers(10000000)"

layer(
  TestServer.layer(freshDataDir(), {
    ...adminEnv,
    SLUICE_QUERY_MAX_RESULT_BYTES: String(LIMIT)
  }),
  { excludeTestServices: true, timeout: 240_000 }
)("results over the size limit", (it) => {
  it.effect("are a 400 in every format, and the cluster keeps answering", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const session = yield* adminSession
      const listed = yield* call(server, "GET", "/v1/clusters?organization=default", {
        token: session
      })
      const clusterId = bodyOf(
        Schema.Struct({ clusters: Schema.Array(Cluster) }),
        listed
      ).clusters.find((c) => c.name === "default")!.id
      const key = yield* keyOf(session, "default")
      const query = (sql: string, format: string) =>
        call(server, "POST", "/v1/query", { token: key, body: { sql, format } })
      expect((yield* query("SELECT 1 AS one", "JSONEachRow")).text.trim()).toBe('{"one":1}')
      const [worker] = workerPids(clusterId)
      const before = rssOf(worker!)

      // Streamed formats and formats the engine produces whole (CSVWithNames, JSONCompact, JSON).
      for (const format of FORMATS) {
        const reply = yield* query(BIG, format)
        expect(reply.status, `${format}: ${reply.text.slice(0, 300)}`).toBe(400)
        expect(reply.json).toMatchObject({
          error: "bad_request",
          message: `The result is larger than ${LIMIT} bytes.`,
          hint: expect.stringContaining("SLUICE_QUERY_MAX_RESULT_BYTES")
        })
      }
      // Producing a whole 1 GB result took the worker to 2.4 GB and its channel down.
      const grown = rssOf(worker!) - before
      expect(grown, `grew by ${Math.round(grown / 1024 ** 2)} MiB`).toBeLessThan(512 * 1024 ** 2)
      expect(workerPids(clusterId)).toEqual([worker])
      const after = yield* query("SELECT count() AS n FROM numbers(10)", "CSVWithNames")
      expect([after.status, after.text.trim()]).toEqual([200, '"n"\n10'])
    })
  )
})
