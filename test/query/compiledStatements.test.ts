/**
 * `QueryRunner.runCompiled`: sluice's own statements skip the user's size limit and hints but
 * keep everything else of the user path: the guard, read-only, the limits and the timeout in the
 * engine's settings, registered for cancel by their id. The engine is a partial double
 * that records what it was asked.
 */
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, FiberId, Layer, Stream } from "effect"
import { Engines } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineSettings } from "../../domain/Engine.js"
import { CompiledStatement, QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import { partial } from "../support/doubles.js"
import { database, queryRunnerOver, scope } from "../support/queryRunner.js"

interface Asked {
  readonly sql: string
  readonly format: string
  readonly settings: EngineSettings
  readonly maxBytes: number
}

/** An engine that answers every whole query with `answer`, after `gate` when given. */
const engineAnswering = (
  answer: Uint8Array,
  asked: Array<Asked>,
  cancelled: Array<string> = [],
  gate: Effect.Effect<void> = Effect.void
) => {
  const reached: Omit<AnalyticalEngine, "insert" | "insertWhole" | "command"> = {
    databasePrefix: "",
    query: () => Stream.dieMessage("streamed, not asked for whole"),
    queryWhole: (request, maxBytes) =>
      Effect.as(
        Effect.zipRight(
          Effect.sync(() =>
            asked.push({
              sql: request.sql,
              format: request.format,
              settings: request.settings,
              maxBytes
            })
          ),
          gate
        ),
        answer
      ),
    cancel: (queryId) => Effect.sync(() => cancelled.push(queryId)).pipe(Effect.as(true))
  }
  return partial(Engines, {
    forCluster: () =>
      Effect.succeed({
        ...reached,
        insert: () => Effect.dieMessage("an insert"),
        insertWhole: () => Effect.dieMessage("an insert"),
        command: () => Effect.dieMessage("a command")
      })
  })
}

const runnerOver = (engines: Layer.Layer<Engines>) =>
  queryRunnerOver(engines, {
    SLUICE_QUERY_MAX_SQL_BYTES: "64",
    SLUICE_QUERY_MAX_RESULT_BYTES: "4096",
    SLUICE_QUERY_TIMEOUT_SECONDS: "7"
  })

const bytesOf = (text: string) => new TextEncoder().encode(text)

// Past the user's size limit (64 bytes here), which the user path refuses.
const ownSql = `SELECT toString(number) AS n, number * 2 AS twice FROM numbers(3) WHERE number > 0`

describe("QueryRunner.runCompiled", () => {
  it.effect("runs sluice's SQL past the size limit, read-only under the limits and timeout", () => {
    const asked: Array<Asked> = []
    return Effect.gen(function* () {
      const runner = yield* QueryRunner
      const refused = yield* Effect.flip(
        runner.run(
          scope,
          database,
          new QueryStatement({ sql: ownSql, format: "TSV", queryId: "user" })
        )
      )
      expect(refused._tag).toBe("QueryRefused")
      const body = yield* runner.runCompiled(
        scope,
        database,
        new CompiledStatement({ sql: ownSql, format: "TSV", queryId: "own", tables: [] })
      )
      expect(new TextDecoder().decode(body)).toBe("a\t8\n")
      expect(asked).toHaveLength(1)
      expect(asked[0]).toMatchObject({ sql: ownSql, format: "TSV", maxBytes: 4096 })
      expect(asked[0]!.settings).toMatchObject({
        readonly: 1,
        max_execution_time: 7,
        max_result_bytes: 4096,
        result_overflow_mode: "throw"
      })
    }).pipe(Effect.provide(runnerOver(engineAnswering(bytesOf("a\t8\n"), asked))))
  })

  it.effect(
    "holds sluice's SQL to the guard: no host call or server state reaches the engine",
    () => {
      const asked: Array<Asked> = []
      return Effect.gen(function* () {
        const runner = yield* QueryRunner
        const compiled = (sql: string) =>
          Effect.flip(
            runner.runCompiled(
              scope,
              database,
              new CompiledStatement({ sql, format: "TSV", queryId: "own", tables: [] })
            )
          )
        const file = yield* compiled("SELECT * FROM file('/etc/passwd', 'LineAsString')")
        expect(file._tag).toBe("Forbidden")
        expect(file.message).toContain("file")
        const setting = yield* compiled("SELECT getServerSetting('path')")
        expect(setting._tag).toBe("Forbidden")
        const write = yield* compiled("INSERT INTO t VALUES (1)")
        expect(write._tag).toBe("QueryRefused")
        expect(asked).toHaveLength(0)
      }).pipe(Effect.provide(runnerOver(engineAnswering(bytesOf("a\t8\n"), asked))))
    }
  )

  it.effect("answers a JSON result's rows as the engine wrote them, and its failure", () => {
    const document = {
      meta: [{ name: "n", type: "UInt64" }],
      data: [{ n: "18446744073709551615" }, { n: "1" }],
      rows: 2,
      rows_before_limit_at_least: 2,
      statistics: { elapsed: 0.5, rows_read: 2, bytes_read: 16 }
    }
    return Effect.gen(function* () {
      const runner = yield* QueryRunner
      const rows = yield* runner.runCompiledRows(
        scope,
        database,
        new CompiledStatement({ sql: "SELECT n FROM t", queryId: "rows", tables: ["t"] })
      )
      expect(rows.data).toEqual([{ n: "18446744073709551615" }, { n: "1" }])
      expect(rows.rows).toBe(2)
      expect(rows.meta.map((column) => [column.name, column.type])).toEqual([["n", "UInt64"]])
      expect({ ...rows.statistics }).toEqual({ elapsed: 0.5, rows_read: 2, bytes_read: 16 })
    }).pipe(Effect.provide(runnerOver(engineAnswering(bytesOf(JSON.stringify(document)), []))))
  })

  it.effect("a failure written into the JSON document is the statement's failure", () =>
    Effect.gen(function* () {
      const runner = yield* QueryRunner
      const failure = yield* Effect.flip(
        runner.runCompiledRows(
          scope,
          database,
          new CompiledStatement({ sql: "SELECT 1", queryId: "cut", tables: [] })
        )
      )
      expect(failure._tag).toBe("QueryRefused")
      expect(failure.message).toContain("Timeout exceeded")
    }).pipe(
      Effect.provide(
        runnerOver(
          engineAnswering(
            bytesOf(
              '{"meta": [{"name": "n", "type": "UInt8"}], "data": [{"n": 1}],\n' +
                '"exception": "Code: 159. DB::Exception: Timeout exceeded: elapsed 7 seconds. (TIMEOUT_EXCEEDED)"}'
            ),
            []
          )
        )
      )
    )
  )

  it.effect("is cancelled by its id while it runs", () => {
    const cancelled: Array<string> = []
    const started = Deferred.unsafeMake<void>(FiberId.none)
    const release = Deferred.unsafeMake<void>(FiberId.none)
    const gate = Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(release))
    return Effect.gen(function* () {
      const runner = yield* QueryRunner
      const running = yield* Effect.fork(
        runner.runCompiled(
          scope,
          database,
          new CompiledStatement({ sql: "SELECT 1", queryId: "search-1", tables: [] })
        )
      )
      yield* Deferred.await(started)
      yield* runner.cancel(scope, database, "search-1")
      expect(cancelled).toHaveLength(1)
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(running)
      // Over: nothing of that id is left to cancel.
      const after = yield* Effect.flip(runner.cancel(scope, database, "search-1"))
      expect(after._tag).toBe("NotFound")
    }).pipe(Effect.provide(runnerOver(engineAnswering(bytesOf("1\n"), [], cancelled, gate))))
  })
})
