/**
 * A user's statement is lexed once: the guard, the hints and the request log read the
 * same parse. The lexer is wrapped to count its calls; the engine is a partial double
 * (no column holds several types, so the hints look the table up and find none).
 */
import { describe, expect, it } from "@effect/vitest"
import { vi } from "vitest"
import { Effect, Stream } from "effect"
import { Engines } from "../../domain/Engine.js"
import { QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import * as SqlTokens from "../../src/query/SqlTokens.js"
import { RequestAnnotations } from "../../src/requestlog/RequestAnnotations.js"
import { partial } from "../support/doubles.js"
import { database, queryRunnerOver, scope } from "../support/queryRunner.js"

vi.mock("../../src/query/SqlTokens.js", async (original) => {
  const lexer = await original<typeof SqlTokens>()
  return { ...lexer, tokens: vi.fn(lexer.tokens) }
})

const document = JSON.stringify({
  meta: [{ name: "price", type: "Float64" }],
  data: [{ price: 1.5 }],
  rows: 1,
  statistics: { elapsed: 0.001, rows_read: 1, bytes_read: 8 }
})

const engines = partial(Engines, {
  forCluster: () =>
    Effect.succeed({
      databasePrefix: "",
      query: () => Stream.dieMessage("streamed"),
      // The statement's JSON document; the hints' look-up of the table's columns (rows of
      // another format) finds none holding several types.
      queryWhole: (request) =>
        Effect.succeed(new TextEncoder().encode(request.format === "JSON" ? document : "")),
      cancel: () => Effect.succeed(false),
      insert: () => Effect.dieMessage("an insert"),
      insertWhole: () => Effect.dieMessage("an insert"),
      command: () => Effect.dieMessage("a command")
    })
})

const runner = queryRunnerOver(engines)

const lexed = () => vi.mocked(SqlTokens.tokens).mock.calls.length

const runLogged = (sql: string) =>
  Effect.gen(function* () {
    const annotations = RequestAnnotations.empty()
    const before = lexed()
    const exit = yield* (yield* QueryRunner)
      .run(scope, database, new QueryStatement({ sql, format: "JSON", queryId: "q" }))
      .pipe(Effect.provideService(RequestAnnotations, annotations), Effect.exit)
    return { exit, lexed: lexed() - before, annotations }
  })

describe("a user's statement", () => {
  it.effect("is lexed once for the guard, the hints and the request log", () =>
    Effect.gen(function* () {
      const ran = yield* runLogged("SELECT p.price FROM prices AS p WHERE p.price > 1")
      expect(ran.exit._tag).toBe("Success")
      expect(ran.lexed).toBe(1)
      expect(ran.annotations.tables).toEqual(["prices"])
      expect(ran.annotations.explain).toBe(false)

      const explained = yield* runLogged("EXPLAIN SELECT * FROM a JOIN b USING (k)")
      expect(explained.lexed).toBe(1)
      expect(explained.annotations.tables).toEqual(["a", "b"])
      expect(explained.annotations.explain).toBe(true)

      // Refused by the guard, and still in the log with the tables it named.
      const refused = yield* runLogged("SELECT * FROM prices, system.processes")
      expect(refused.exit._tag).toBe("Failure")
      expect(refused.lexed).toBe(1)
      expect(refused.annotations.tables).toEqual(["prices", "processes"])
    }).pipe(Effect.provide(runner))
  )
})
