/**
 * The metrics-app's write log on disk: what is appended is found again, byte for byte and
 * in order, by the log of a later process over the same directory, until it is released;
 * a record cut short (a crash mid-append) ends what is read of its segment.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { SeriesDatabase } from "../../domain/MetricsWriteLog.js"
import * as FileWriteLog from "../../src/prometheus/writelog/FileWriteLog.js"
import { freshDataDir } from "../support/server.js"

const CLUSTER = ClusterId.make("8f0c6f2e-4c1a-4b7e-9d3e-2a5b6c7d8e9f")
const metrics = new SeriesDatabase({ clusterId: CLUSTER, database: DatabaseName.make("metrics") })
const other = new SeriesDatabase({ clusterId: CLUSTER, database: DatabaseName.make("other") })
const bytes = (...values: Array<number>) => new Uint8Array(values)

const found = (root: string) =>
  Effect.scoped(Effect.flatMap(FileWriteLog.make(root), (log) => log.unreleased)).pipe(
    Effect.map((writes) => writes.map(({ body, write }) => [write.where.database, [...body]]))
  )

describe("FileWriteLog", () => {
  it.effect("a later log over the same directory finds every unreleased write, in order", () =>
    Effect.gen(function* () {
      const root = path.join(freshDataDir("write-log"), "metrics-log")
      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* FileWriteLog.make(root)
          yield* log.append(metrics, bytes(1, 2, 3))
          const two = yield* log.append(other, bytes(4))
          yield* log.append(metrics, bytes(5, 6))
          yield* log.release([two])
        })
      )
      // `other` held one write, released: its segment is gone with the log that wrote it.
      expect(fs.readdirSync(path.join(root, CLUSTER, "other"))).toEqual([])

      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* FileWriteLog.make(root)
          const held = yield* log.unreleased
          expect(held.map(({ body, write }) => [write.where.database, [...body]])).toEqual([
            ["metrics", [1, 2, 3]],
            ["metrics", [5, 6]]
          ])
          yield* log.append(metrics, bytes(7))
          yield* log.release(held.map(({ write }) => write))
        })
      )
      expect(yield* found(root)).toEqual([["metrics", [7]]])
    })
  )

  it.effect("forgetting a cluster drops its writes and its directory, and only its", () =>
    Effect.gen(function* () {
      const root = path.join(freshDataDir("write-log"), "metrics-log")
      const elsewhere = new SeriesDatabase({
        clusterId: ClusterId.make("1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d"),
        database: DatabaseName.make("metrics")
      })
      yield* Effect.scoped(
        Effect.gen(function* () {
          const log = yield* FileWriteLog.make(root)
          yield* log.append(metrics, bytes(1))
          yield* log.append(other, bytes(2))
          yield* log.append(elsewhere, bytes(3))
          yield* log.forget(CLUSTER)
          expect(fs.existsSync(path.join(root, CLUSTER))).toBe(false)
          // Appends after it start afresh.
          yield* log.append(metrics, bytes(4))
        })
      )
      expect(yield* found(root)).toEqual([
        ["metrics", [3]],
        ["metrics", [4]]
      ])
    })
  )

  it.effect("a record cut short ends its segment; stray names are not writes", () =>
    Effect.gen(function* () {
      const root = path.join(freshDataDir("write-log"), "metrics-log")
      expect(yield* found(root)).toEqual([])
      const directory = path.join(root, CLUSTER, "metrics")
      fs.mkdirSync(directory, { recursive: true })
      // Two whole records (lengths 3 and 1), then one announcing 5 bytes with only 2 there.
      fs.writeFileSync(
        path.join(directory, "000000000000001-000000000.wal"),
        bytes(3, 0, 0, 0, 9, 8, 7, 1, 0, 0, 0, 6, 5, 0, 0, 0, 1, 2)
      )
      fs.writeFileSync(path.join(directory, "notes.txt"), "x")
      fs.mkdirSync(path.join(root, "not-a-cluster", "metrics"), { recursive: true })
      fs.writeFileSync(path.join(root, "not-a-cluster", "metrics", "1.wal"), bytes(1, 0, 0, 0, 1))
      expect(yield* found(root)).toEqual([
        ["metrics", [9, 8, 7]],
        ["metrics", [6]]
      ])
    })
  )
})
