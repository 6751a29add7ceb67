/** Reads selected series and their samples through the user-level SQL path. */
import { Chunk, Effect, Schema, Stream } from "effect"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { QueryRunner, QueryStatement } from "../../../domain/QueryRunner.js"
import type { QueryFormat } from "../../../domain/api/QueryApi.js"
import { bitsValue, STALE_BITS } from "../SampleBits.js"
import type { Labels } from "../SeriesLabels.js"
import type { Matcher } from "./Ast.js"
import { metadataSql, samplesSql, seriesSql } from "./SeriesSql.js"
import type { RawSeries } from "./Values.js"
import { labelsKey } from "./Values.js"

const SeriesRow = Schema.parseJson(
  Schema.Struct({
    id: Schema.String,
    series_labels: Schema.Record({ key: Schema.String, value: Schema.String })
  })
)
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

export const makeFetch = (
  runner: QueryRunner["Type"],
  scope: ClusterScope,
  database: DatabaseName
) => {
  const text = (sql: string, format: QueryFormat) =>
    Effect.gen(function* () {
      const result = yield* runner.run(
        scope,
        database,
        new QueryStatement({ sql, format, queryId: crypto.randomUUID() })
      )
      if (result._tag === "Whole") return new TextDecoder().decode(result.body)
      const rest = yield* Stream.runCollect(result.rest)
      return new TextDecoder().decode(
        Buffer.concat([...result.head, ...Chunk.toReadonlyArray(rest)])
      )
    })

  const lines = (body: string) => body.split("\n").filter((line) => line.length > 0)

  const series = (matchers: ReadonlyArray<Matcher>, from?: number, to?: number) =>
    Effect.map(text(seriesSql(matchers, from, to), "JSONEachRow"), (body) =>
      lines(body).map((line) => {
        const row = decodeSeriesRow(line)
        return { id: row.id, labels: row.series_labels }
      })
    )

  /** Samples in `(from, to]`; a repeated timestamp (a retried write not merged yet) counts once. */
  const samples = (matchers: ReadonlyArray<Matcher>, from: number, to: number) =>
    Effect.gen(function* () {
      const selected = yield* series(matchers, from, to)
      if (selected.length === 0) return []
      const labelsOf = new Map<string, Labels>(selected.map((s) => [s.id, s.labels]))
      const body = yield* text(samplesSql(matchers, from, to), "TabSeparated")
      const out: Array<RawSeries> = []
      let id = ""
      let times: Array<number> = []
      let values: Array<number> = []
      let stale: Array<number> = []
      const flush = () => {
        if (times.length > 0 && labelsOf.has(id))
          out.push({
            labels: labelsOf.get(id)!,
            times: Float64Array.from(times),
            values: Float64Array.from(values),
            stale: Uint8Array.from(stale)
          })
        times = []
        values = []
        stale = []
      }
      for (const line of lines(body)) {
        const [rowId, ms, bits] = line.split("\t")
        if (rowId !== id) {
          flush()
          id = rowId!
        }
        // A series written after its labels were read is left for the next query.
        if (!labelsOf.has(id)) continue
        const t = Number(ms)
        if (times.length > 0 && times[times.length - 1] === t) continue
        const raw = BigInt(bits!)
        times.push(t)
        values.push(bitsValue(raw))
        stale.push(raw === STALE_BITS ? 1 : 0)
      }
      flush()
      // Prometheus hands series on in label order, and ties (topk, bottomk) go to the first.
      return out.sort((a, b) => (labelsKey(a.labels) < labelsKey(b.labels) ? -1 : 1))
    })

  const metadata = (metric: string | undefined) =>
    Effect.map(text(metadataSql(metric), "JSONEachRow"), (body) =>
      lines(body).map((line) => decodeMetadataRow(line))
    )

  return { series, samples, metadata }
}
