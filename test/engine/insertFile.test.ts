/**
 * `LocalEngine.insertFile`, how a cluster's worker takes a large binary body the service
 * wrote: the body goes in whole, and the file is gone afterwards whether the engine took
 * it or refused it. chDB reads the file itself (`INSERT … FROM INFILE`); a ClickHouse
 * server gets it as the request's body.
 */
import { createClient } from "@clickhouse/client"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import type { Scope } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { CommandRequest } from "../../domain/Engine.js"
import * as ChdbEngine from "../../src/engine/ChdbEngine.js"
import * as ClickHouseEngine from "../../src/engine/ClickHouseEngine.js"
import type { LocalEngine } from "../../src/engine/ClickHouseEngine.js"
import { httpConnection } from "../../src/engine/HttpConnection.js"
import { startClickHouseServer } from "../support/clickhouseServer.js"
import { numberedInsert, numberedRowBinary, queryText } from "./helpers.js"

const ROWS = 50_000

/** `numberedRowBinary`'s rows in a file of their own. */
const rowBinaryFile = (extra = 0) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sluice-insert-file-")), "body.bin")
  fs.writeFileSync(file, numberedRowBinary(ROWS, extra))
  return file
}

const engines: ReadonlyArray<{
  readonly name: string
  readonly engine: Effect.Effect<LocalEngine, unknown, Scope.Scope>
}> = [
  { name: "chDB in this process", engine: ChdbEngine.open(":memory:") },
  {
    name: "a ClickHouse server",
    engine: Effect.gen(function* () {
      const { url } = yield* startClickHouseServer
      const client = createClient({
        url,
        connection: httpConnection({ url, username: "default", password: "" })
      })
      return yield* ClickHouseEngine.make(client)
    })
  }
]

for (const { name, engine: opened } of engines)
  describe(`insertFile on ${name}`, () => {
    it.scoped(
      "inserts the file's rows and removes it; a refused body is removed too, inserting nothing",
      () =>
        Effect.gen(function* () {
          const engine = yield* opened
          const table = `from_file_${randomUUID().slice(0, 8)}`
          yield* engine.command(
            new CommandRequest({
              sql: `CREATE TABLE default.${table} (n UInt64, v Float64) ENGINE = MergeTree ORDER BY n`
            })
          )
          const counted = () =>
            Effect.map(
              queryText(
                engine,
                `SELECT count(), sum(n), countIf(v * 4 != n) FROM default.${table}`,
                "TabSeparated"
              ),
              (text) => text.trim()
            )

          const good = rowBinaryFile()
          yield* engine.insertFile(numberedInsert(table), good)
          expect(yield* counted()).toBe(`${ROWS}\t${(ROWS * (ROWS - 1)) / 2}\t0`)
          expect(fs.existsSync(good)).toBe(false)

          // The last row cut short: not a whole number of rows.
          const cut = rowBinaryFile(5)
          const refused = yield* Effect.flip(engine.insertFile(numberedInsert(table), cut))
          expect(refused._tag).toBe("EngineError")
          expect(fs.existsSync(cut)).toBe(false)
          expect(yield* counted()).toBe(`${ROWS}\t${(ROWS * (ROWS - 1)) / 2}\t0`)
        }),
      120_000
    )
  })
