/**
 * The metrics-app's write log on disk: what is appended is found again, byte for byte and
 * in order, by the log of a later process over the same directory, until it is released.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { SeriesDatabase } from "../../domain/MetricsWriteLog.js"
import * as FileWriteLog from "../../src/metrics/log/FileWriteLog.js"
import { freshDataDir } from "../support/server.js"

const CLUSTER = ClusterId.make("8f0c6f2e-4c1a-4b7e-9d3e-2a5b6c7d8e9f")
const metrics = new SeriesDatabase({ clusterId: CLUSTER, database: DatabaseName.make("metrics") })
const other = new SeriesDatabase({ clusterId: CLUSTER, database: DatabaseName.make("other") })
const bytes = (...values: Array<number>) => new Uint8Array(values)

describe("FileWriteLog", () => {
  it.effect("a later log over the same directory finds every unreleased write, in order", () =>
    Effect.gen(function* () {
      const root = path.join(freshDataDir("write-log"), "metrics-log")
      const first = FileWriteLog.make(root)
      const one = yield* first.append(metrics, bytes(1, 2, 3))
      const two = yield* first.append(other, bytes(4))
      const three = yield* first.append(metrics, bytes(5, 6))
      yield* first.release([two])

      const later = FileWriteLog.make(root)
      const found = yield* later.unreleased
      expect(found.map(({ body, write }) => [write.where.database, [...body]])).toEqual([
        ["metrics", [1, 2, 3]],
        ["metrics", [5, 6]]
      ])
      expect(found.map(({ write }) => write.id)).toEqual([one.id, three.id])

      // Writes appended after a restart sort after the ones found.
      const four = yield* later.append(metrics, bytes(7))
      yield* later.release(found.map(({ write }) => write))
      const left = yield* FileWriteLog.make(root).unreleased
      expect(left.map(({ write }) => write.id)).toEqual([four.id])
    })
  )

  it.effect("an empty or missing directory holds nothing; stray names are not writes", () =>
    Effect.gen(function* () {
      const root = path.join(freshDataDir("write-log"), "metrics-log")
      expect(yield* FileWriteLog.make(root).unreleased).toEqual([])
      fs.mkdirSync(path.join(root, "not-a-cluster", "metrics"), { recursive: true })
      fs.writeFileSync(path.join(root, "not-a-cluster", "metrics", "1.rw"), "x")
      fs.mkdirSync(path.join(root, CLUSTER, "metrics"), { recursive: true })
      fs.writeFileSync(path.join(root, CLUSTER, "metrics", "notes.txt"), "x")
      expect(yield* FileWriteLog.make(root).unreleased).toEqual([])
    })
  )
})
