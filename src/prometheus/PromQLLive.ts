/**
 * `PromQL` on the metrics-app's tables: parse (Parse.ts), evaluate every step
 * (Eval.ts) over samples read through `QueryRunner`, shape the result as Prometheus
 * does. A query reads once `SeriesStore` says every write accepted before it is stored.
 */
import { Duration, Effect, Layer, Option } from "effect"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { DatabaseName } from "../../domain/Ids.js"
import { PromQL, PromQLError } from "../../domain/PromQL.js"
import { RangeQuery } from "../../domain/PromQL.js"
import type {
  ExemplarsQuery,
  InstantQuery,
  PromQLResult,
  SeriesSelection
} from "../../domain/PromQL.js"
import { QueryRunner } from "../../domain/QueryRunner.js"
import { nonNegativeInt } from "../config/ConfigValues.js"
import { promqlMaxSamples, queryConfig } from "../config/SluiceConfig.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import type { Matcher } from "./promql/parser/Ast.js"
import { selectorsIn } from "./promql/parser/Ast.js"
import { makeBudget } from "./promql/evaluator/Budget.js"
import { evaluate, queryContext } from "./promql/evaluator/Eval.js"
import { explainingFetch } from "./promql/read/Explain.js"
import { prettyExpr } from "./promql/parser/Print.js"
import { rangeInput } from "./promql/read/Selectors.js"
import type { CountFetch, Fetch, Windows } from "./promql/read/Selectors.js"
import { makeFetch } from "./promql/read/Fetch.js"
import { makeKnownLabels } from "./promql/read/KnownLabels.js"
import { makeReadCache } from "./promql/read/ReadCache.js"
import { makeOnceEach, makeSharedReads } from "./promql/read/SharedReads.js"
import type { RawSeries } from "./promql/evaluator/Values.js"
import { SeriesStore } from "./SeriesStore.js"
import {
  asInstant,
  asMatrix,
  badData,
  byLabels,
  evaluationErrors,
  MAX_POINTS,
  parse,
  selectorMatchers
} from "./promql/Requests.js"

/** How a query reads: samples, and counts made by the engine where it can count them. */
interface Reads<E> {
  readonly fetch: Fetch<E>
  readonly countWindows?: CountFetch<E>
}

/** What a sample read fails with. */
type ReadError = Effect.Effect.Error<ReturnType<ReturnType<typeof makeFetch>["samples"]>>

/** Bytes of samples kept between queries (ReadCache.ts); 0 keeps none. */
export const readCacheBytes = nonNegativeInt("SLUICE_METRICS_READ_CACHE_BYTES", 64 * 1024 * 1024)

export const PromQLLive = Layer.effect(
  PromQL,
  Effect.gen(function* () {
    const runner = yield* QueryRunner
    // The whole evaluation, its statements and the work between them, under the SQL timeout.
    const { timeoutSeconds } = yield* queryConfig
    const store = yield* SeriesStore
    const maxSamples = yield* promqlMaxSamples
    const known = makeKnownLabels()
    const cache = makeReadCache(yield* readCacheBytes)
    const shared = makeSharedReads<ReadonlyArray<RawSeries>, ReadError>()

    /** The database's reads, and the version of its tables they read. */
    const fetchIn = (scope: ClusterScope, database: DatabaseName) =>
      store.readable(scope.clusterId, database).pipe(
        Effect.mapError(engineAccessError),
        Effect.map((version) => ({ version, fetch: makeFetch(runner, scope, database, known) }))
      )

    // The query's own timeout (ms) when shorter than the service's; none left is a timeout at once.
    const withTimeout =
      (own: number | undefined) =>
      <A, E, R>(effect: Effect.Effect<A, E, R>) => {
        const bound = Math.min(timeoutSeconds * 1000, own ?? Infinity)
        // Made only when a query times out: an error's construction (its schema's check
        // and stack) was a visible share of a small query's CPU.
        const timedOut = () =>
          new PromQLError({
            errorType: "timeout",
            message:
              bound === own
                ? "query timed out in expression evaluation"
                : `query timed out in expression evaluation (SLUICE_QUERY_TIMEOUT_SECONDS=${timeoutSeconds})`
          })
        return bound <= 0
          ? Effect.fail(timedOut())
          : Effect.timeoutFail(effect, { duration: Duration.millis(bound), onTimeout: timedOut })
      }

    const rangeOver = <E, E2>(query: RangeQuery, readsOf: Effect.Effect<Reads<E>, E2>) =>
      Effect.gen(function* () {
        if (query.end < query.start)
          return yield* badData("end timestamp must not be before start time", "end")
        if (!(query.step > 0))
          return yield* badData(
            "zero or negative query resolution step widths are not accepted. Try a positive integer",
            "step"
          )
        if ((query.end - query.start) / query.step > MAX_POINTS)
          return yield* badData(
            "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query resolution (?step=XX)"
          )
        const expr = yield* parse(query.query, "query")
        if (expr.kind === "matrix" || expr.kind === "subquery")
          return yield* badData(
            `invalid expression type "range vector" for range query, must be Scalar or instant Vector`
          )
        const steps: Array<number> = []
        for (let t = query.start; t <= query.end; t += query.step) steps.push(t)
        const reads = yield* readsOf
        const value = yield* withTimeout(query.timeout)(
          evaluationErrors(
            evaluate(
              queryContext(
                query.start,
                query.end,
                reads.fetch,
                makeBudget(maxSamples),
                reads.countWindows
              ),
              expr,
              steps
            )
          )
        )
        return yield* evaluationErrors(Effect.sync(() => asMatrix(value, steps)))
      })

    const instantOver = <E, E2>(query: InstantQuery, readsOf: Effect.Effect<Reads<E>, E2>) =>
      Effect.gen(function* () {
        const expr = yield* parse(query.query, "query")
        const steps = [query.time]
        const reads = yield* readsOf
        const ctx = queryContext(
          query.time,
          query.time,
          reads.fetch,
          makeBudget(maxSamples),
          reads.countWindows
        )
        if (expr.kind === "matrix" || expr.kind === "subquery") {
          const input = yield* withTimeout(query.timeout)(
            evaluationErrors(rangeInput(ctx, expr, steps))
          )
          const end = input.ends[0]!
          const series = input.series.map((s) => ({
            labels: s.labels,
            points: Array.from(s.times)
              .map((t, i) => [t, s.values[i]!] as const)
              .filter(([t]) => t > end - input.range && t <= end)
          }))
          return {
            _tag: "matrix",
            series: byLabels(series.filter((s) => s.points.length > 0))
          } satisfies PromQLResult
        }
        const value = yield* withTimeout(query.timeout)(
          evaluationErrors(evaluate(ctx, expr, steps))
        )
        return asInstant(value, query.time)
      })

    /**
     * One query's sample reads: kept ones from earlier queries under the same version of
     * the tables (ReadCache.ts), and each window of a selector read once: `a / a`,
     * `x > on(…) group_left x` and their kind (35 of the 539 compliance queries) name one
     * selector twice, and the two sides are evaluated concurrently, so the second waits
     * for the first's read instead of running the same statement again.
     */
    const storedSamples = (scope: ClusterScope, database: DatabaseName) =>
      Effect.gen(function* () {
        const { version, fetch } = yield* fetchIn(scope, database)
        const once = makeOnceEach<ReadonlyArray<RawSeries>, ReadError>()
        const read = (
          matchers: ReadonlyArray<Matcher>,
          from: number,
          to: number,
          windows: Windows | null
        ) => {
          const selector = `${scope.clusterId}\u0000${database}\u0000${JSON.stringify(matchers)}`
          // A read of only some windows serves those windows again; a whole read, any.
          const windowed =
            windows === null
              ? selector
              : `${selector}\u0000${windows.phase}/${windows.step}/${windows.range}`
          const kept =
            cache.get(windowed, version, from, to) ??
            (windowed === selector ? undefined : cache.get(selector, version, from, to))
          if (kept !== undefined) return Effect.succeed(kept)
          return shared(
            `${windowed}\u0000${version}\u0000${from}\u0000${to}`,
            Effect.tap(fetch.samples(matchers, from, to, windows ?? undefined), (series) =>
              Effect.sync(() => cache.put(windowed, version, from, to, series))
            )
          )
        }
        const samples: Fetch<ReadError> = (matchers, from, to, windows) =>
          once(JSON.stringify([matchers, from, to, windows ?? null]), () =>
            read(matchers, from, to, windows ?? null)
          )
        return { fetch: samples, countWindows: fetch.windowCounts } satisfies Reads<ReadError>
      })

    const range = Effect.fn("PromQL.range")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      query: RangeQuery
    ) {
      return yield* rangeOver(query, storedSamples(scope, database))
    })

    const instant = Effect.fn("PromQL.instant")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      query: InstantQuery
    ) {
      return yield* instantOver(query, storedSamples(scope, database))
    })

    const explain = Effect.fn("PromQL.explain")(function* (
      _scope: ClusterScope,
      _database: DatabaseName,
      query: InstantQuery | RangeQuery
    ) {
      const recorded = explainingFetch()
      const result = yield* query instanceof RangeQuery
        ? rangeOver(query, Effect.succeed(recorded))
        : instantOver(query, Effect.succeed(recorded))
      return { result, selectors: recorded.selectors }
    })

    const selected = (scope: ClusterScope, database: DatabaseName, selection: SeriesSelection) =>
      Effect.gen(function* () {
        const { fetch } = yield* fetchIn(scope, database)
        const groups: Array<ReadonlyArray<Matcher>> = []
        for (const text of selection.matchers) groups.push(yield* selectorMatchers(text))
        // No selector: every series (labels and label values may be asked that way).
        const sets = groups.length === 0 ? [[]] : groups
        const found = new Map<string, Readonly<Record<string, string>>>()
        const from = selection.start === undefined ? undefined : selection.start - 1
        for (const matchers of sets)
          for (const row of yield* fetch.series(matchers, from, selection.end))
            found.set(row.id, row.labels)
        return byLabels([...found.values()].map((labels) => ({ labels }))).map((s) => s.labels)
      })

    const series = Effect.fn("PromQL.series")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      selection: SeriesSelection
    ) {
      if (selection.matchers.length === 0) return yield* badData("no match[] parameter provided")
      return yield* selected(scope, database, selection)
    })

    const labelNames = Effect.fn("PromQL.labelNames")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      selection: SeriesSelection
    ) {
      const all = yield* selected(scope, database, selection)
      return [...new Set(all.flatMap((labels) => Object.keys(labels)))].sort()
    })

    const labelValues = Effect.fn("PromQL.labelValues")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      name: string,
      selection: SeriesSelection
    ) {
      const all = yield* selected(scope, database, selection)
      return [
        ...new Set(all.flatMap((labels) => (labels[name] === undefined ? [] : [labels[name]])))
      ].sort()
    })

    const metadata = Effect.fn("PromQL.metadata")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      metric: string | undefined
    ) {
      const { fetch } = yield* fetchIn(scope, database)
      const rows = yield* fetch.metadata(metric)
      return Object.fromEntries(
        rows.map((row) => [row.metric, [{ type: row.type, help: row.help, unit: row.unit }]])
      )
    })

    const format = Effect.fn("PromQL.format")(function* (query: string) {
      return prettyExpr(yield* parse(query, "query"))
    })

    // Remote write's exemplars are not stored (RemoteWriteDecode.ts): a query that names
    // series has none, as Prometheus answers with its exemplar storage off (its default).
    const exemplars = Effect.fn("PromQL.exemplars")(function* (
      _scope: ClusterScope,
      _database: DatabaseName,
      query: ExemplarsQuery
    ) {
      if (query.start !== undefined && query.end !== undefined && query.end < query.start)
        return yield* badData("end timestamp must not be before start timestamp")
      const expr = yield* parse(query.query)
      return selectorsIn(expr).length === 0 ? Option.none() : Option.some([])
    })

    // The metrics-app gates its own capability, so a program that embeds sluice meets
    // the same refusal as an HTTP caller.
    const apps = yield* AppRegistry
    const gated =
      <Args extends [ClusterScope, ...Array<unknown>], A, E, R>(
        method: (...args: Args) => Effect.Effect<A, E, R>
      ) =>
      (...args: Args) =>
        Effect.zipRight(apps.require(args[0].clusterId, AppIds.metrics), method(...args))

    return PromQL.of({
      range: gated(range),
      instant: gated(instant),
      explain: gated(explain),
      format,
      series: gated(series),
      labelNames: gated(labelNames),
      labelValues: gated(labelValues),
      exemplars: gated(exemplars),
      metadata: gated(metadata)
    })
  })
)
