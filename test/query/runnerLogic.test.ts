/**
 * `QueryRunner`'s own decisions, before any engine: the SQL size limit and the read-only
 * guard refuse a statement without reaching a cluster, and a paused cluster is a conflict
 * naming how to resume it; a statement read whole is one engine call. The engines are a partial double: reaching any other method
 * would fail the test.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Stream } from "effect"
import { Engines } from "../../domain/Engine.js"
import { ClusterPaused, errorBody, errorStatus } from "../../domain/Errors.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { DatabaseName } from "../../domain/Ids.js"
import { QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import { partial } from "../support/doubles.js"
import { queryRunnerOver, scope } from "../support/queryRunner.js"

const runnerOver = (engines: Layer.Layer<Engines>) =>
  queryRunnerOver(engines, {
    SLUICE_QUERY_MAX_SQL_BYTES: "64",
    SLUICE_QUERY_MAX_RESULT_BYTES: "4096"
  })

const statement = (sql: string) => new QueryStatement({ sql, format: "JSON", queryId: "q1" })
const run = (sql: string) =>
  Effect.flatMap(QueryRunner, (runner) =>
    Effect.flip(runner.run(scope, DatabaseName.make("default"), statement(sql)))
  )

describe("QueryRunner before the engine", () => {
  it.effect("refuses oversized and writing statements without asking for an engine", () =>
    Effect.gen(function* () {
      const long = yield* run(`SELECT '${"x".repeat(80)}'`)
      expect([long._tag, long.message, long.hint]).toEqual([
        "QueryRefused",
        "The SQL is 89 bytes; at most 64 are accepted.",
        "Shorten the statement (the limit is SLUICE_QUERY_MAX_SQL_BYTES)."
      ])
      const write = yield* run("INSERT INTO t VALUES (1)")
      expect([write._tag, write.message]).toEqual([
        "QueryRefused",
        "INSERT statements cannot run here: queries are read-only."
      ])
      // A misspelt keyword is a syntax error, not a read-only violation.
      const typo = yield* run("SELEC 1")
      expect([typo._tag, typo.message, typo.hint]).toEqual([
        "QueryRefused",
        "Syntax error: 'SELEC' starts no statement.",
        "Did you mean SELECT? Queries start with SELECT, WITH, EXPLAIN, DESCRIBE, SHOW or EXISTS."
      ])
      const empty = yield* run("  -- nothing\n")
      expect(empty.message).toBe("Syntax error: The SQL is empty.")
      const two = yield* run("SELECT 1; SELECT 2")
      expect(two.message).toBe("The SQL holds more than one statement.")
    }).pipe(Effect.provide(runnerOver(partial(Engines, {}))))
  )

  it.effect(
    "a paused cluster is ClusterPaused, a 409 cluster_paused that says how to resume it",
    () =>
      Effect.gen(function* () {
        const error = yield* run("SELECT 1")
        expect(error._tag).toBe("ClusterPaused")
        if (error._tag !== "ClusterPaused") return
        expect(errorStatus[error._tag]).toBe(409)
        expect(errorBody(error)).toEqual({
          error: "cluster_paused",
          message: "Cluster 'main' is paused.",
          hint: "Resume it first."
        })
      }).pipe(
        Effect.provide(
          runnerOver(
            partial(Engines, {
              forCluster: () =>
                Effect.fail(
                  new ClusterPaused({
                    message: "Cluster 'main' is paused.",
                    hint: "Resume it first."
                  })
                )
            })
          )
        )
      )
  )

  it.effect("a statement read whole is asked of the engine in one piece, read-only", () => {
    const asked: Array<{ readonly: unknown; maxBytes: number }> = []
    const samples = new Uint8Array([1, 2, 3, 4])
    // What the runner may reach; an insert or a command would be a defect.
    const reached: Omit<AnalyticalEngine, "insert" | "insertWhole" | "command"> = {
      databasePrefix: "",
      query: () => Stream.dieMessage("streamed, not asked for whole"),
      queryWhole: (request, maxBytes) =>
        Effect.sync(() => {
          asked.push({ readonly: request.settings?.readonly, maxBytes })
          return samples
        }),
      cancel: () => Effect.succeed(false)
    }
    const engine = partial(Engines, {
      forCluster: () =>
        Effect.succeed({
          ...reached,
          insert: () => Effect.dieMessage("an insert"),
          insertWhole: () => Effect.dieMessage("an insert"),
          command: () => Effect.dieMessage("a command")
        })
    })
    return Effect.gen(function* () {
      const runner = yield* QueryRunner
      const result = yield* runner.run(
        scope,
        DatabaseName.make("default"),
        new QueryStatement({ sql: "SELECT 1", format: "RowBinary", queryId: "q2", whole: true })
      )
      expect(result._tag).toBe("Whole")
      if (result._tag === "Whole") expect([...result.body]).toEqual([1, 2, 3, 4])
      expect(asked).toEqual([{ readonly: 1, maxBytes: 4096 }])
    }).pipe(Effect.provide(runnerOver(engine)))
  })
})
