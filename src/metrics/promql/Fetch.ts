/** Reads selected series and their samples through the user-level SQL path. */
import { Chunk, Effect, Schema, Stream } from "effect"
import type { ClusterScope } from "../../../domain/Authorization.js"
import type { DatabaseName } from "../../../domain/Ids.js"
import { QueryRunner, QueryStatement } from "../../../domain/QueryRunner.js"
import type { QueryFormat } from "../../../domain/api/QueryApi.js"
import type { Matcher } from "./Ast.js"
import { metadataSql, seriesSamplesSql, seriesSql } from "./SeriesSql.js"
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

const decodeLabels = Schema.decodeUnknownSync(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.String }))
)

/** The engine's Float64 text: shortest round-trip digits, or `nan`, `inf`, `-inf`. */
const float = (text: string) =>
  text === "nan" || text === "-nan"
    ? NaN
    : text === "inf"
      ? Infinity
      : text === "-inf"
        ? -Infinity
        : Number(text)

const items = (array: string) => (array.length <= 2 ? [] : array.slice(1, -1).split(","))

/** `labels \t [times] \t [values] \t [stale flags]` into one series. */
const seriesOfLine = (line: string): RawSeries => {
  const [labels, times, values, stale] = line.split("\t")
  const t = items(times!)
  const v = items(values!)
  const f = items(stale!)
  const outTimes = new Float64Array(t.length)
  const outValues = new Float64Array(t.length)
  const outStale = new Uint8Array(t.length)
  let n = 0
  for (let i = 0; i < t.length; i++) {
    const time = Number(t[i])
    if (n > 0 && outTimes[n - 1] === time) continue
    outTimes[n] = time
    outValues[n] = float(v[i]!)
    outStale[n] = f[i] === "1" ? 1 : 0
    n++
  }
  return {
    labels: decodeLabels(Buffer.from(labels!, "base64").toString("utf8")),
    times: n === t.length ? outTimes : outTimes.slice(0, n),
    values: n === t.length ? outValues : outValues.slice(0, n),
    stale: n === t.length ? outStale : outStale.slice(0, n)
  }
}

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

  /**
   * Samples in `(from, to]`, read as the engine streams them: one series' line at a time
   * becomes typed arrays, so a long range costs its samples' 17 bytes each, not their text.
   * A repeated timestamp (a retried write not merged yet) counts once.
   */
  const samples = (matchers: ReadonlyArray<Matcher>, from: number, to: number) =>
    Effect.gen(function* () {
      const result = yield* runner.run(
        scope,
        database,
        new QueryStatement({
          sql: seriesSamplesSql(matchers, from, to),
          format: "TabSeparated",
          queryId: crypto.randomUUID()
        })
      )
      const bytes =
        result._tag === "Whole"
          ? Stream.make(result.body)
          : Stream.concat(Stream.fromIterable(result.head), result.rest)
      const out: Array<RawSeries> = []
      yield* bytes.pipe(
        Stream.decodeText(),
        Stream.splitLines,
        Stream.runForEach((line) =>
          Effect.sync(() => {
            if (line.length > 0) out.push(seriesOfLine(line))
          })
        )
      )
      // Prometheus hands series on in label order, and ties (topk, bottomk) go to the first.
      return out.sort((a, b) => (labelsKey(a.labels) < labelsKey(b.labels) ? -1 : 1))
    })

  const metadata = (metric: string | undefined) =>
    Effect.map(text(metadataSql(metric), "JSONEachRow"), (body) =>
      lines(body).map((line) => decodeMetadataRow(line))
    )

  return { series, samples, metadata }
}
