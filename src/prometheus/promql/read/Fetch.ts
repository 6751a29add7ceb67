/**
 * Reads selected series and their samples: statements sluice compiled, run whole through
 * `QueryRunner.runCompiled` (the guard, no hints, the bytes as the engine wrote them).
 */
import { Effect, Schema } from "effect"
import type { ClusterScope } from "../../../../domain/Authorization.js"
import type { DatabaseName } from "../../../../domain/Ids.js"
import { CompiledStatement, QueryRunner } from "../../../../domain/QueryRunner.js"
import type { StatementFormat } from "../../../../domain/QueryRunner.js"
import type { Matcher } from "../parser/Ast.js"
import type { KnownLabels } from "./KnownLabels.js"
import type { Labels } from "../../SeriesLabels.js"
import type { WindowCounts, Windows } from "./Selectors.js"
import { sampleCounts, sampleRows, windowCountRows } from "./SampleRows.js"
import type { SampleRun } from "./SampleRows.js"
import {
  labelsSql,
  metadataSql,
  sampleCountsSql,
  samplesSql,
  seriesSql,
  timesBase,
  windowCountsSql
} from "./SeriesSql.js"
import { METADATA_TABLE, SAMPLES_TABLE, SERIES_TABLE } from "../../MetricsTables.js"
import {
  SLICE_SAMPLES,
  SliceGatherer,
  seriesBatches,
  timeSlices,
  WHOLE_SAMPLES
} from "./SlicedReads.js"
import type { RawSeries } from "../evaluator/Values.js"
import { labelsKey } from "../evaluator/Values.js"

/**
 * A label set as the engine answers it, checked and kept as parsed: decoding a record
 * rebuilds it by assignment, which drops a label named `__proto__`.
 */
const LabelSet = Schema.declare(
  Schema.is(Schema.Record({ key: Schema.String, value: Schema.String }))
)

const SeriesRow = Schema.parseJson(Schema.Struct({ id: Schema.String, series_labels: LabelSet }))
const decodeSeriesRow = Schema.decodeUnknownSync(SeriesRow)
const decodeMetadataRow = Schema.decodeUnknownSync(
  Schema.parseJson(
    Schema.Struct({
      metric: Schema.String,
      type: Schema.String,
      help: Schema.String,
      unit: Schema.String
    })
  )
)

/** Reads spanning less than this are read in one statement, never cut or sliced. */
const COUNTED_READ_MS = 3_600_000

/** How many samples a read tries whole, and how many a slice of a larger one holds. */
export interface ReadSizes {
  readonly whole: number
  readonly slice: number
}

export const READ_SIZES: ReadSizes = { whole: WHOLE_SAMPLES, slice: SLICE_SAMPLES }

export const makeFetch = (
  runner: QueryRunner["Type"],
  scope: ClusterScope,
  database: DatabaseName,
  known: KnownLabels,
  sizes: ReadSizes = READ_SIZES
) => {
  const bytes = (sql: string, format: StatementFormat, table: string) =>
    runner.runCompiled(
      scope,
      database,
      new CompiledStatement({ sql, format, queryId: crypto.randomUUID(), tables: [table] })
    )
  const text = (sql: string, format: StatementFormat, table: string) =>
    Effect.map(bytes(sql, format, table), (body) => new TextDecoder().decode(body))

  const lines = (body: string) => body.split("\n").filter((line) => line.length > 0)

  const series = (matchers: ReadonlyArray<Matcher>, from?: number, to?: number) =>
    Effect.map(text(seriesSql(matchers, from, to), "JSONEachRow", SERIES_TABLE), (body) =>
      lines(body).map((line) => {
        const row = decodeSeriesRow(line)
        return { id: row.id, labels: row.series_labels }
      })
    )

  const keyOf = (id: string) => `${scope.clusterId}\u0000${database}\u0000${id}`

  /** The label sets of `ids`, read only for those not known yet. */
  const labelsOf = (ids: ReadonlyArray<string>) =>
    Effect.gen(function* () {
      const missing = ids.filter((id) => known.get(keyOf(id)) === undefined)
      if (missing.length > 0)
        for (const line of lines(yield* text(labelsSql(missing), "JSONEachRow", SERIES_TABLE))) {
          const row = decodeSeriesRow(line)
          known.remember(keyOf(row.id), row.series_labels)
        }
      return (id: string) => known.get(keyOf(id))
    })

  /** One samples statement over `(from, to]`, as `samplesSql` words it for that span. */
  const read = (
    matchers: ReadonlyArray<Matcher>,
    from: number,
    to: number,
    windows: Windows | undefined,
    limit?: number,
    ids?: ReadonlyArray<string>
  ) =>
    Effect.map(
      bytes(samplesSql(matchers, from, to, windows, limit, ids), "Native", SAMPLES_TABLE),
      (body) => sampleRows(body, timesBase(from, to))
    )

  /**
   * A read over more than an hour is first tried whole, cut at one sample more than
   * `sizes.whole`; only when it was cut are its samples counted per series and read in
   * slices (SlicedReads.ts). Counting first cost every long read a second statement over
   * the same rows (a quarter of the engine's time for a day of 200 series, 1.2M samples),
   * where a cut read wastes at most one slice's worth on reads past a slice. The count is
   * the read's snapshot of which series it reads, as Prometheus's query reads the series
   * there are when it starts.
   */
  const sampleRunsOf = (
    matchers: ReadonlyArray<Matcher>,
    from: number,
    to: number,
    windows: Windows | undefined
  ) =>
    Effect.gen(function* () {
      if (to - from <= COUNTED_READ_MS) return (yield* read(matchers, from, to, windows)).runs
      // Mapped so that a cut read's samples are not referenced while the slices are read.
      const whole = yield* Effect.map(
        read(matchers, from, to, windows, sizes.whole + 1),
        (tried) => (tried.rows <= sizes.whole ? tried.runs : undefined)
      )
      if (whole !== undefined) return whole
      const counts = sampleCounts(
        yield* bytes(sampleCountsSql(matchers, from, to, windows), "RowBinary", SAMPLES_TABLE)
      )
      const runs: Array<SampleRun> = []
      for (const batch of seriesBatches(counts, sizes.slice)) {
        if (batch.samples <= sizes.slice) {
          runs.push(...(yield* read(matchers, from, to, windows, undefined, batch.ids)).runs)
          continue
        }
        const gathered = new SliceGatherer(new Map([[batch.ids[0]!, batch.samples]]))
        for (const slice of timeSlices(from, to, Math.ceil(batch.samples / sizes.slice)))
          gathered.add(
            (yield* read(matchers, slice.from, slice.to, windows, undefined, batch.ids)).runs
          )
        runs.push(...gathered.runs())
      }
      return runs
    })

  /**
   * Per series id, `make` of its label set and what was read of it, in the label order
   * Prometheus hands series on (ties in topk and bottomk go to the first). Every selected
   * id has a series row (it was selected through it); one without is left out.
   */
  const inLabelOrder = <A, B extends { readonly labels: Labels }>(
    read: ReadonlyArray<readonly [string, A]>,
    make: (labels: Labels, one: A) => B
  ) =>
    Effect.map(labelsOf(read.map(([id]) => id)), (labelsById) => {
      const out: Array<B> = []
      for (const [id, one] of read) {
        const labels = labelsById(id)
        if (labels !== undefined) out.push(make(labels, one))
      }
      return out.sort((a, b) => (labelsKey(a.labels) < labelsKey(b.labels) ? -1 : 1))
    })

  /**
   * Samples in `(from, to]` (those `windows` holds, when given) per selected series, in
   * label order (`inLabelOrder`).
   */
  const samples = (matchers: ReadonlyArray<Matcher>, from: number, to: number, windows?: Windows) =>
    Effect.flatMap(sampleRunsOf(matchers, from, to, windows), (runs) =>
      inLabelOrder(
        runs.map((run) => [run.id, run] as const),
        (labels, run): RawSeries => ({
          labels,
          times: run.times,
          values: run.values,
          stale: run.stale
        })
      )
    )

  /**
   * Per selected series with samples in `(from, to]`, how many each window holds, counted
   * by the engine (`windowCountsSql`), in the order `samples` hands series on.
   */
  const windowCounts = (
    matchers: ReadonlyArray<Matcher>,
    from: number,
    to: number,
    windows?: Windows
  ) =>
    Effect.gen(function* () {
      const rows = windowCountRows(
        yield* bytes(windowCountsSql(matchers, from, to, windows), "RowBinary", SAMPLES_TABLE)
      )
      const byId = new Map<string, { counted: Map<number, number>; samples: number }>()
      for (const row of rows) {
        let one = byId.get(row.id)
        if (one === undefined) byId.set(row.id, (one = { counted: new Map(), samples: 0 }))
        one.samples += row.samples
        if (row.counted > 0) one.counted.set(row.windowEnd, row.counted)
      }
      return yield* inLabelOrder([...byId], (labels, one): WindowCounts => ({ labels, ...one }))
    })

  const metadata = (metric: string | undefined) =>
    Effect.map(text(metadataSql(metric), "JSONEachRow", METADATA_TABLE), (body) =>
      lines(body).map((line) => decodeMetadataRow(line))
    )

  return { series, samples, windowCounts, metadata }
}
