/**
 * What every engine operation shares: a client to run on, a place in the in-flight
 * registry, and a kill for statements whose caller went away before they ended.
 */
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect, identity } from "effect"
import type { Scope } from "effect"
import type { EngineError, EngineSettings, InsertRequest } from "../../domain/Engine.js"
import { cancelledError, toEngineError } from "./EngineMessage.js"
import * as InFlight from "./InFlight.js"
import * as Sql from "./Sql.js"
import { acquireRelease, addFinalizer } from "../stream/ScopedRelease.js"

/** A body already written to a file the engine can read; the insert removes it. */
export interface BodyFile {
  readonly file: string
}

/** An insert of a whole body by chDB's own calls (no SQL text around the body). */
export interface NativeInsert {
  readonly request: InsertRequest
  readonly body: Uint8Array | BodyFile
  readonly settings: Record<string, string | number | boolean>
  readonly signal: AbortSignal
}

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
  /** The formats `insert` takes; others go as the end of an `INSERT`'s text. */
  readonly insertFormats: ReadonlySet<string>
  readonly insert: (insert: NativeInsert) => Promise<void>
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
  /**
   * A cancel answers once the engine has stopped the query (`KILL … SYNC`), not once it
   * was asked to: a ClickHouse server could end a killed query's answer before letting go
   * of its id, which was then still taken. Not on chDB, whose waiting kill did not return
   * while the query's reader was waiting on the cancel.
   */
  readonly cancelWaits?: boolean
}

/** One statement's place in the engine, for the enclosing scope. */
export interface Statement {
  readonly client: ClickHouseClient
  /** Present on chDB: the statement's session, for real streaming. */
  readonly native: NativeSession | undefined
  /**
   * chDB: the session statements to run before this one (`Sql.sessionStatements`), or
   * `undefined` when its session was kept from an earlier query with the same ones.
   */
  readonly setup: string | undefined
  readonly signal: AbortSignal
  readonly settings: Record<string, string | number | boolean>
  /**
   * The engine has finished the statement (`completed`: without an error), so leaving the
   * scope needs no kill.
   */
  readonly settle: (completed: boolean) => void
  /** Maps a failure, reporting an abort by `cancel` as a cancellation. */
  readonly failure: (error: unknown) => EngineError
}

const KILL_TIMEOUT = "5 seconds"

/**
 * Read-only query sessions kept for reuse, by their session statements. Opening a chDB
 * session and setting it up costs about as much as a small query; a session that answered
 * a query cleanly is as the setup left it (`readonly=1` lets no statement change it), so
 * the next query with the same setup takes it. Such a session carries no `log_comment`: a kill
 * finds its query by the marker at the end of the query text (`Sql.withQueryMarker`).
 * As many are kept per setup as statements usually run at once (the worker's 16 libuv
 * threads): with 4 kept, 16 concurrent inserts opened and closed 12 sessions a round, and
 * the worker spent more CPU per small insert and per small query than with 16 kept.
 */
const IDLE_SESSIONS_PER_SETUP = 16
/** The key of sessions kept for statements with inline settings (no setup to run). */
const INLINE = "inline"
const IDLE_SESSIONS = 32

const closeClient = (c: StatementClient) =>
  // chDB closes the session synchronously (deferred behind native work, which `drain`
  // awaits); the promise only settles milliseconds later.
  Effect.sync(() => void c.client.close().catch(() => undefined))

export const make = (client: ClickHouseClient, options: StatementOptions) => {
  const inFlight = InFlight.make()
  const defaults = options.defaultSettings ?? {}
  const perStatement = options.clientPerStatement
  const idle = new Map<string, Array<StatementClient>>()
  let idleCount = 0
  let closing = false

  const takeIdle = (setup: string): StatementClient | undefined => {
    const kept = idle.get(setup)?.pop()
    if (kept !== undefined) idleCount--
    return kept
  }
  const keep = (setup: string, c: StatementClient) => {
    const kept = idle.get(setup) ?? []
    if (closing || kept.length >= IDLE_SESSIONS_PER_SETUP || idleCount >= IDLE_SESSIONS) {
      return closeClient(c)
    }
    kept.push(c)
    idle.set(setup, kept)
    idleCount++
    return Effect.void
  }

  // `client` runs nothing else on chDB, so a kill never queues behind a query.
  const kill = (queryId: string, wait: "SYNC" | "ASYNC"): Effect.Effect<boolean, EngineError> =>
    Effect.tryPromise({
      try: async () => {
        const result = await client.exec({
          query: Sql.killStatement(wait),
          query_params: { id: queryId }
        })
        let rows = ""
        for await (const chunk of result.stream) rows += String(chunk)
        return rows.split("\n").some((line) => line.length > 0)
      },
      catch: toEngineError
    })

  /**
   * Registers a statement; if its scope ends before it settles, aborts and kills it.
   * `session`: for a query, the database it runs in, and that its session may be one
   * kept from an earlier query with the same setup, and kept again if it ends cleanly;
   * `inline` for a statement that carries its settings in its own text (an insert on
   * chDB), which leaves any session as it found it, so one kept for that is used.
   */
  const begin = (
    queryId: string | undefined,
    settings: EngineSettings,
    session?: { readonly database: string | undefined } | "inline"
  ): Effect.Effect<Statement, EngineError, Scope.Scope> =>
    Effect.gen(function* () {
      let settled = false
      let completed = false
      const controller = yield* inFlight.enter(queryId)
      // Only `readonly=1` keeps a session as its setup left it, whatever the query runs.
      const readonly = { ...defaults, ...settings }.readonly
      const inline = session === "inline"
      const reusable =
        session !== undefined &&
        perStatement !== undefined &&
        (inline || readonly === 1 || readonly === "1" || readonly === true)
      // A kept query session cannot take a `log_comment`: its query is found by a marker.
      const statementSettings = Sql.statementSettings(
        defaults,
        settings,
        reusable && !inline ? undefined : queryId
      )
      const setup = inline ? INLINE : Sql.sessionStatements(session?.database, statementSettings)
      let kept: StatementClient | undefined = undefined
      const statementClient: StatementClient =
        perStatement === undefined
          ? { client }
          : yield* acquireRelease(
              Effect.try({
                try: () => (reusable ? (kept = takeIdle(setup)) : undefined) ?? perStatement(),
                catch: toEngineError
              }),
              // Kept only if its statement completed in the engine and was not aborted: then
              // the session is as its setup left it, however the reader ended (over the
              // worker's RPC the reader stops at the last piece, interrupting the stream).
              (c) =>
                reusable && completed && !controller.signal.aborted
                  ? keep(setup, c)
                  : closeClient(c)
            )
      // Registered last so it runs first: kill before the statement's client goes.
      yield* addFinalizer(() => {
        if (settled || queryId === undefined) return Effect.void
        controller.abort()
        return kill(queryId, "ASYNC").pipe(Effect.timeout(KILL_TIMEOUT), Effect.ignore)
      })
      return {
        client: statementClient.client,
        native: statementClient.native,
        setup: kept === undefined ? setup : undefined,
        signal: controller.signal,
        settings: statementSettings,
        settle: (ok) => {
          settled = true
          completed = ok
        },
        failure: (error) => (controller.signal.aborted ? cancelledError : toEngineError(error))
      }
    })

  /**
   * Kill first: an aborted chDB call rejects at once but keeps computing. A waiting kill
   * (`cancelWaits`) that is still waiting after `KILL_TIMEOUT` has found the query.
   */
  const cancel = (queryId: string) =>
    (options.cancelWaits
      ? kill(queryId, "SYNC").pipe(
          Effect.timeoutTo({ duration: KILL_TIMEOUT, onSuccess: identity, onTimeout: () => true })
        )
      : kill(queryId, "ASYNC")
    ).pipe(Effect.map((killed) => inFlight.abort(queryId) || killed))

  /** Waits for work in flight and work the engine still runs, then closes `client`. */
  const close = inFlight.close.pipe(
    Effect.zipRight(
      Effect.suspend(() => {
        closing = true
        const sessions = [...idle.values()].flat()
        idle.clear()
        idleCount = 0
        return Effect.forEach(sessions, closeClient, { discard: true })
      })
    ),
    Effect.zipRight(Effect.promise(() => options.drain?.() ?? Promise.resolve())),
    Effect.zipRight(Effect.promise(() => client.close()))
  )

  return { begin, cancel, close }
}
