/**
 * Inserts into a cluster's engine worker arrive whole and in order, however they travel:
 * a body held in many pieces that fits in one message goes as one, a longer one is
 * opened and fed in chunks, a large binary one is handed over as a file. The pieces are
 * cut mid-row, so a piece lost, repeated or out of place fails the insert or changes the
 * rows' count or sum.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Stream } from "effect"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { CommandRequest, Engines, InsertRequest } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { numberedInsert, numberedRowBinary, queryText } from "../engine/helpers.js"
import { TestServer, freshDataDir } from "../support/server.js"
import { adminEnv, adminSession, defaultClusterEngine, defaultClusterId } from "./support.js"

const dataDir = freshDataDir("worker-inserts")

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

/** `numberedRowBinary`'s rows cut into pieces of `pieceBytes`, mid-row included. */
const rowBinaryPieces = (rows: number, pieceBytes: number) => {
  const whole = numberedRowBinary(rows)
  const pieces: Array<Uint8Array> = []
  for (let at = 0; at < whole.length; at += pieceBytes)
    pieces.push(whole.subarray(at, at + pieceBytes))
  return pieces
}

const text = (engine: AnalyticalEngine, sql: string) =>
  Effect.map(queryText(engine, sql, "TabSeparated"), (s) => s.trim())

layer(TestServer.layer(dataDir, adminEnv), {
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

  /** The files in the cluster's exchange directory, where a body handed over as a file goes. */
  const exchanged = (clusterId: string) =>
    fs.readdirSync(path.join(dataDir, "clusters", clusterId, "exchange"))

  for (const { name, rows } of [
    // 0.3 MB: one message.
    { name: "a small binary body", rows: 20_000 },
    // 4.8 MB: handed over as a file.
    { name: "a large binary body", rows: 300_000 }
  ])
    it.effect(`${name} in pieces arrives whole and in order, leaving no file`, () =>
      Effect.gen(function* () {
        const { clusterId, engine } = yield* defaultClusterEngine
        const table = `binary_${rows}`
        yield* engine.command(
          new CommandRequest({
            sql: `CREATE TABLE default.${table} (n UInt64, v Float64) ENGINE = MergeTree ORDER BY n`
          })
        )
        yield* engine.insert(
          numberedInsert(table),
          Stream.fromIterable(rowBinaryPieces(rows, 65_537))
        )
        const counted = yield* text(
          engine,
          `SELECT count(), sum(n), uniqExact(n), countIf(v * 4 != n) FROM default.${table}`
        )
        expect(counted).toBe(`${rows}\t${(rows * (rows - 1)) / 2}\t${rows}\t0`)
        expect(exchanged(clusterId)).toEqual([])
      }).pipe(Effect.orDie)
    )

  it.effect(
    "a large binary body the engine refuses fails as the engine says, inserting nothing and naming no path",
    () =>
      Effect.gen(function* () {
        const { clusterId, engine } = yield* defaultClusterEngine
        yield* engine.command(
          new CommandRequest({
            sql: "CREATE TABLE default.binary_cut (n UInt64, v Float64) ENGINE = MergeTree ORDER BY n"
          })
        )
        // The last row cut short: not a whole number of rows.
        const refused = yield* Effect.flip(
          engine.insertWhole(numberedInsert("binary_cut"), numberedRowBinary(300_000, 5))
        )
        expect(refused._tag).toBe("EngineError")
        expect(refused.message).toMatch(/Cannot read all data/)
        expect(refused.message).not.toContain(dataDir)
        expect(refused.message).not.toContain(".bin")
        expect(yield* text(engine, "SELECT count() FROM default.binary_cut")).toBe("0")
        expect(exchanged(clusterId)).toEqual([])
      }).pipe(Effect.orDie)
  )
})
