/**
 * An `AnalyticalEngine` over `@clickhouse/client`: the same code drives chDB (through
 * `chdb/connection`) and a ClickHouse server over HTTP.
 */
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect, Exit, Stream } from "effect"
import type { Scope } from "effect"
import type {
  AnalyticalEngine,
  CommandRequest,
  EngineError,
  InsertRequest,
  InsertSummary,
  EngineQuery
} from "../../domain/Engine.js"
import * as fs from "node:fs"
import * as Insert from "./Insert.js"
import * as Query from "./Query.js"
import * as Sql from "./Sql.js"
import * as Statements from "./Statements.js"

export interface ClickHouseEngineOptions extends Statements.StatementOptions {
  /** See `AnalyticalEngine.databasePrefix`; empty by default. */
  readonly databasePrefix?: string
}

/**
 * An engine this process drives, which can also take a body from a file on this machine:
 * a cluster's worker is handed large binary bodies that way (EngineRpcs.ts).
 */
export interface LocalEngine extends AnalyticalEngine {
  /** Inserts the body held in `file`, removing the file whether it went in or not. */
  readonly insertFile: (
    request: InsertRequest,
    file: string
  ) => Effect.Effect<InsertSummary, EngineError>
}

/** Builds the engine; closing the scope waits for work in flight, then closes `client`. */
export const make = (
  client: ClickHouseClient,
  options: ClickHouseEngineOptions = {}
): Effect.Effect<LocalEngine, never, Scope.Scope> =>
  Effect.gen(function* () {
    const statements = Statements.make(client, {
      ...options,
      // 64-bit integers as JSON strings, which JSON.parse cannot round: chDB prints them
      // bare by default, and so does a ClickHouse server since 25.8.
      defaultSettings: { output_format_json_quote_64bit_integers: 1, ...options.defaultSettings }
    })
    yield* Effect.addFinalizer(() => statements.close)

    const query = (request: EngineQuery) =>
      Stream.unwrapScoped(
        Effect.gen(function* () {
          const format = yield* Sql.formatName(request.format)
          const statement = yield* statements.begin(request.queryId, request.settings, {
            database: request.database
          })
          return yield* Query.run(statement, request, format)
        })
      ).pipe(Stream.withSpan("Engine.query", { attributes: { queryId: request.queryId } }))

    const queryOpen = (request: EngineQuery, pieces: number) =>
      Effect.gen(function* () {
        const format = yield* Sql.formatName(request.format)
        const statement = yield* statements.begin(request.queryId, request.settings, {
          database: request.database
        })
        return yield* Query.open(statement, request, format, pieces)
      }).pipe(Effect.withSpan("Engine.queryOpen", { attributes: { queryId: request.queryId } }))

    const queryWhole = Effect.fn("Engine.queryWhole")(function* (
      request: EngineQuery,
      maxBytes: number
    ) {
      yield* Effect.annotateCurrentSpan("queryId", request.queryId)
      const format = yield* Sql.formatName(request.format)
      const statement = yield* statements.begin(request.queryId, request.settings, {
        database: request.database
      })
      return yield* Query.whole(statement, request, format, maxBytes)
    }, Effect.scoped)

    /** An insert on a statement of its own; on chDB its settings are in its text (Insert.ts). */
    const inserting = <E>(
      name: string,
      request: InsertRequest,
      run: (statement: Statements.Statement) => Effect.Effect<InsertSummary, E, Scope.Scope>
    ) =>
      Effect.gen(function* () {
        yield* Sql.formatName(request.format)
        return yield* run(yield* statements.begin(request.queryId, request.settings, "inline"))
      }).pipe(Effect.scoped, Effect.withSpan(name))

    const insert = <E>(request: InsertRequest, body: Stream.Stream<Uint8Array, E>) =>
      inserting("Engine.insert", request, (statement) => Insert.run(statement, request, body))

    const insertWhole = (request: InsertRequest, bytes: Uint8Array) =>
      inserting("Engine.insertWhole", request, (statement) =>
        Insert.whole(statement, request, bytes)
      )

    const insertFile = (request: InsertRequest, file: string) =>
      inserting("Engine.insertFile", request, (statement) =>
        Insert.whole(statement, request, { file })
      ).pipe(Effect.ensuring(Effect.promise(() => fs.promises.rm(file, { force: true }))))

    const command = Effect.fn("Engine.command")(function* (request: CommandRequest) {
      const statement = yield* statements.begin(request.queryId, request.settings)
      yield* Effect.tryPromise({
        try: () =>
          statement.client.command({
            query: request.sql,
            ...(request.queryId === undefined ? {} : { query_id: request.queryId }),
            clickhouse_settings: statement.settings,
            abort_signal: statement.signal
          }),
        catch: statement.failure
      }).pipe(Effect.onExit((exit) => Effect.sync(() => statement.settle(Exit.isSuccess(exit)))))
    }, Effect.scoped)

    const cancel = Effect.fn("Engine.cancel")(function* (queryId: string) {
      return yield* statements.cancel(queryId)
    })

    const engine: LocalEngine = {
      databasePrefix: options.databasePrefix ?? "",
      query,
      queryWhole,
      queryOpen,
      insert,
      insertWhole,
      insertFile,
      command,
      cancel
    }
    return engine
  })
