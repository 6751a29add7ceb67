/**
 * What every engine operation shares: a client to run on, a place in the in-flight
 * registry, and a kill for statements whose caller went away before they ended.
 */
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect } from "effect"
import type { Scope } from "effect"
import type { EngineError, EngineSettings } from "../../domain/Engine.js"
import { cancelledError, toEngineError } from "./EngineMessage.js"
import * as InFlight from "./InFlight.js"
import * as Sql from "./Sql.js"

/**
 * chDB's own calls on a statement's session. Its `@clickhouse/client` adapter
 * materialises every result, so queries go through these to stream for real.
 */
export interface NativeSession {
  /** Runs session statements (`USE`, `SET`) that the following statement sees. */
  readonly run: (sql: string) => Promise<void>
  readonly stream: (sql: string, format: string, signal: AbortSignal) => AsyncIterable<Uint8Array>
  /** Single-shot, for statements chDB cannot stream (`SHOW`, `EXISTS`, `DESCRIBE` …). */
  readonly once: (sql: string, format: string, signal: AbortSignal) => Promise<Uint8Array>
}

/** A statement's own connection. */
export interface StatementClient {
  readonly client: ClickHouseClient
  readonly native?: NativeSession
}

export interface StatementOptions {
  /** Settings every statement starts from; a request's own settings win. */
  readonly defaultSettings?: EngineSettings
  /**
   * A fresh client for each statement, closed when it ends. chDB needs one: it applies
   * settings as session `SET`s that outlive the statement (one `readonly=1` query would
   * leave the connection read-only for good) and runs a connection's statements one at
   * a time, so a kill sent on it would wait behind the query it is meant to stop.
   */
  readonly clientPerStatement?: () => StatementClient
  /** Waits for engine work that outlived its request (chDB keeps computing after an abort). */
  readonly drain?: () => Promise<void>
}

/** One statement's place in the engine, for the enclosing scope. */
export interface Statement {
  readonly client: ClickHouseClient
  /** Present on chDB: the statement's session, for real streaming. */
  readonly native: NativeSession | undefined
  readonly signal: AbortSignal
  readonly settings: Record<string, string | number | boolean>
  /** The engine has finished the statement: leaving the scope needs no kill. */
  readonly settle: () => void
  /** Maps a failure, reporting an abort by `cancel` as a cancellation. */
  readonly failure: (error: unknown) => EngineError
}

const KILL_TIMEOUT = "5 seconds"

export const make = (client: ClickHouseClient, options: StatementOptions) => {
  const inFlight = InFlight.make()
  const defaults = options.defaultSettings ?? {}
  const perStatement = options.clientPerStatement
  const clientFor =
    perStatement === undefined
      ? Effect.succeed<StatementClient>({ client })
      : Effect.acquireRelease(Effect.try({ try: perStatement, catch: toEngineError }), (c) =>
          // chDB closes the session synchronously (deferred behind native work, which
          // `drain` awaits); the promise only settles milliseconds later.
          Effect.sync(() => void c.client.close().catch(() => undefined))
        )

  // `client` runs nothing else on chDB, so a kill never queues behind a query.
  const kill = (queryId: string): Effect.Effect<boolean, EngineError> =>
    Effect.tryPromise({
      try: async () => {
        const result = await client.exec({
          query: Sql.killStatement,
          query_params: { id: queryId }
        })
        let rows = ""
        for await (const chunk of result.stream) rows += String(chunk)
        return rows.split("\n").some((line) => line.length > 0)
      },
      catch: toEngineError
    })

  /** Registers a statement; if its scope ends before it settles, aborts and kills it. */
  const begin = (
    queryId: string | undefined,
    settings: EngineSettings
  ): Effect.Effect<Statement, EngineError, Scope.Scope> =>
    Effect.gen(function* () {
      let settled = false
      const controller = yield* inFlight.enter(queryId)
      const statementClient = yield* clientFor
      // Registered last so it runs first: kill before the statement's client goes.
      yield* Effect.addFinalizer(() => {
        if (settled || queryId === undefined) return Effect.void
        controller.abort()
        return kill(queryId).pipe(Effect.timeout(KILL_TIMEOUT), Effect.ignore)
      })
      return {
        client: statementClient.client,
        native: statementClient.native,
        signal: controller.signal,
        settings: Sql.statementSettings(defaults, settings, queryId),
        settle: () => {
          settled = true
        },
        failure: (error) => (controller.signal.aborted ? cancelledError : toEngineError(error))
      }
    })

  /** Kill first: an aborted chDB call rejects at once but keeps computing. */
  const cancel = (queryId: string) =>
    Effect.map(kill(queryId), (killed) => inFlight.abort(queryId) || killed)

  /** Waits for work in flight and work the engine still runs, then closes `client`. */
  const close = inFlight.close.pipe(
    Effect.zipRight(Effect.promise(() => options.drain?.() ?? Promise.resolve())),
    Effect.zipRight(Effect.promise(() => client.close()))
  )

  return { begin, cancel, close }
}
