/**
 * Inserts into a cluster's engine worker arrive whole and in order, however they travel:
 * a body held in many pieces that fits in one message goes as one, a longer one is
 * opened and fed in chunks. The pieces are cut mid-row, so a piece lost, repeated or out
 * of place fails the insert or changes the rows' count or sum.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Stream } from "effect"
import { randomUUID } from "node:crypto"
import { CommandRequest, Engines, InsertRequest } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { queryText } from "../engine/helpers.js"
import { TestServer, freshDataDir } from "../support/server.js"
import { adminEnv, adminSession, defaultClusterId } from "./support.js"

/**
 * Rows `{"n":…,"pad":…}` of about 200 bytes, cut into pieces of `pieceBytes` wherever
 * that falls, mid-row included: only the pieces joined in their order parse.
 */
const numberedPieces = (rows: number, pieceBytes: number) => {
  const pad = "x".repeat(180)
  const lines: Array<string> = []
  for (let n = 0; n < rows; n++) lines.push(`{"n":${n},"pad":"${pad}"}\n`)
  const whole = new TextEncoder().encode(lines.join(""))
  const pieces: Array<Uint8Array> = []
  for (let at = 0; at < whole.length; at += pieceBytes)
    pieces.push(whole.slice(at, at + pieceBytes))
  return pieces
}

const text = (engine: AnalyticalEngine, sql: string) =>
  Effect.map(queryText(engine, sql, "TabSeparated"), (s) => s.trim())

layer(TestServer.layer(freshDataDir("worker-inserts"), adminEnv), {
  excludeTestServices: true,
  timeout: 180_000
})("inserts into an engine worker", (it) => {
  for (const { name, rows } of [
    // ~12 MB: more than one chunk of the chunked path, within one message.
    { name: "a body of many pieces within one message", rows: 60_000 },
    // ~50 MB: past what goes as one message, so opened and fed in chunks.
    { name: "a body longer than one message", rows: 250_000 }
  ])
    it.effect(`${name} arrives whole and in order`, () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const clusterId = yield* defaultClusterId(yield* adminSession)
        const engine = yield* Context.get(server.context, Engines).forCluster(clusterId)
        const table = `numbered_${rows}`
        yield* engine.command(
          new CommandRequest({
            sql: `CREATE TABLE default.${table} (n UInt64, pad String) ENGINE = MergeTree ORDER BY n`
          })
        )
        const body = numberedPieces(rows, 65_537)
        yield* engine.insert(
          new InsertRequest({
            database: "default",
            table,
            format: "JSONEachRow",
            queryId: randomUUID(),
            settings: {}
          }),
          Stream.fromIterable(body)
        )
        const counted = yield* text(
          engine,
          `SELECT count(), sum(n), uniqExact(n), countIf(length(pad) != 180) FROM default.${table}`
        )
        // Every row once (0 to rows - 1), none of them mangled.
        expect(counted).toBe(`${rows}\t${(rows * (rows - 1)) / 2}\t${rows}\t0`)
      }).pipe(Effect.orDie)
    )
})
