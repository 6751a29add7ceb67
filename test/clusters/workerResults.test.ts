/**
 * A cluster's engine worker hands a whole `RowBinary` result to the service as a file in
 * the cluster's `exchange` directory (`QueryToFile`). The bytes are the engine's rows, the
 * size limit holds, a failed or stopped query leaves nothing behind, and no message names
 * where the file was (the engine's messages name a path as `<path>`, EngineMessage.ts).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { EngineQuery } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { queryText } from "../engine/helpers.js"
import { TestServer, freshDataDir } from "../support/server.js"
import { adminEnv, defaultClusterEngine } from "./support.js"

const dataDir = freshDataDir("worker-results")

const rowBinary = (sql: string) =>
  new EngineQuery({ sql, format: "RowBinary", queryId: randomUUID() })

/** `(n UInt64, n * 1.5 Float64)` for n in [0, rows), as RowBinary lays them out. */
const expectedRows = (rows: number) => {
  const bytes = Buffer.alloc(rows * 16)
  for (let n = 0; n < rows; n++) {
    bytes.writeBigUInt64LE(BigInt(n), n * 16)
    bytes.writeDoubleLE(n * 1.5, n * 16 + 8)
  }
  return bytes
}

const text = (engine: AnalyticalEngine, sql: string) =>
  Effect.map(queryText(engine, sql, "TabSeparated"), (s) => s.trim())

layer(TestServer.layer(dataDir, adminEnv), { excludeTestServices: true, timeout: 180_000 })(
  "whole results from an engine worker",
  (it) => {
    const cluster = Effect.gen(function* () {
      const { clusterId, engine } = yield* defaultClusterEngine
      const results = path.join(dataDir, "clusters", clusterId, "exchange")
      return { engine, left: () => fs.readdirSync(results) }
    })

    it.effect("arrive as the engine's rows, and leave no file behind", () =>
      Effect.gen(function* () {
        const { engine, left } = yield* cluster
        // 8 MB: far more than one socket buffer.
        const rows = 500_000
        const bytes = yield* engine.queryWhole(
          rowBinary(`SELECT number, number * 1.5 FROM numbers(${rows})`),
          64 * 1024 * 1024
        )
        expect(Buffer.compare(Buffer.from(bytes), expectedRows(rows))).toBe(0)
        const empty = yield* engine.queryWhole(
          rowBinary("SELECT number FROM numbers(10) WHERE number > 100"),
          1024
        )
        expect(empty.byteLength).toBe(0)
        expect(left()).toEqual([])
      }).pipe(Effect.orDie)
    )

    it.effect("past the reader's limit fail as too large, and leave no file behind", () =>
      Effect.gen(function* () {
        const { engine, left } = yield* cluster
        const error = yield* Effect.flip(
          engine.queryWhole(rowBinary("SELECT number FROM numbers(100000)"), 100_000)
        )
        expect(error).toMatchObject({
          type: "TOO_MANY_ROWS_OR_BYTES",
          message: "The result is larger than 100000 bytes."
        })
        expect(left()).toEqual([])
      })
    )

    it.effect("that fail in the engine name no path of the server's", () =>
      Effect.gen(function* () {
        const { engine, left } = yield* cluster
        for (const sql of [
          "SELECT * FROM no_such_table",
          "SELECT (",
          "SELECT 1 FORMAT JSON",
          "SELECT 1; -- done"
        ]) {
          const outcome = yield* Effect.either(engine.queryWhole(rowBinary(sql), 1024))
          if (sql === "SELECT 1; -- done") {
            // A trailing `;` and comment end the caller's text, not the statement.
            expect(outcome._tag, JSON.stringify(outcome)).toBe("Right")
            continue
          }
          expect(outcome._tag).toBe("Left")
          const message = outcome._tag === "Left" ? outcome.left.message : ""
          expect(message).not.toContain(dataDir)
          expect(message).not.toContain("exchange")
        }
        expect(left()).toEqual([])
      })
    )

    it.effect(
      "stopped while running leave no file behind",
      () =>
        Effect.gen(function* () {
          const { engine, left } = yield* cluster
          const marker = randomUUID()
          const running = yield* Effect.fork(
            engine.queryWhole(
              rowBinary(`SELECT count() FROM numbers(100000000000) WHERE '${marker}' != ''`),
              1024
            )
          )
          // Stopped once the engine runs it and has made its file (a query that never
          // makes one fails this test by its timeout).
          const seen = `SELECT count() FROM system.processes WHERE query LIKE '%${marker}%' AND query NOT LIKE '%system.processes%'`
          while ((yield* text(engine, seen)) === "0" || left().length === 0)
            yield* Effect.yieldNow()
          yield* Fiber.interrupt(running)
          // A file left behind fails this test by its timeout.
          while ((yield* text(engine, seen)) !== "0" || left().length > 0) yield* Effect.yieldNow()
        }).pipe(Effect.orDie),
      60_000
    )
  }
)
