/**
 * The upstream compliance tester's comparison ("How results are compared"),
 * re-implemented: outcome against `should_fail`, then the matrices (ours
 * sorted by label set), label sets exact, timestamps exact, values within a relative
 * 1e-5 with NaN equal to NaN. Instant results compare the same way as one-step matrices.
 */
import { Schema } from "effect"

const Metric = Schema.Record({ key: Schema.String, value: Schema.String })
const Point = Schema.Tuple(Schema.Number, Schema.String)

export const ApiReply = Schema.Union(
  Schema.Struct({
    status: Schema.Literal("success"),
    data: Schema.Union(
      Schema.Struct({
        resultType: Schema.Literal("matrix"),
        result: Schema.Array(Schema.Struct({ metric: Metric, values: Schema.Array(Point) }))
      }),
      Schema.Struct({
        resultType: Schema.Literal("vector"),
        result: Schema.Array(Schema.Struct({ metric: Metric, value: Point }))
      }),
      Schema.Struct({ resultType: Schema.Literal("scalar"), result: Point }),
      Schema.Struct({ resultType: Schema.Literal("string"), result: Point })
    )
  }),
  Schema.Struct({ status: Schema.Literal("error"), errorType: Schema.String, error: Schema.String })
)
export type ApiReply = typeof ApiReply.Type

interface Series {
  readonly metric: Readonly<Record<string, string>>
  readonly values: ReadonlyArray<readonly [number, string]>
}

const asSeries = (reply: ApiReply): ReadonlyArray<Series> | string => {
  if (reply.status === "error") return `error ${reply.errorType}`
  const data = reply.data
  switch (data.resultType) {
    case "matrix":
      return data.result
    case "vector":
      return data.result.map((s) => ({ metric: s.metric, values: [s.value] }))
    case "scalar":
      return [{ metric: {}, values: [data.result] }]
    case "string":
      return "string result"
  }
}

const key = (metric: Readonly<Record<string, string>>) =>
  Object.keys(metric)
    .sort()
    .map((name) => `${name}\u0000${metric[name]}`)
    .join("\u0001")

const parse = (text: string) =>
  text === "NaN" ? NaN : text === "+Inf" ? Infinity : text === "-Inf" ? -Infinity : Number(text)

const sameValue = (a: number, b: number) => {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b)
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b
  return Math.abs(a - b) <= 1e-5 * Math.min(Math.abs(a), Math.abs(b))
}

/** `undefined` when equal, else the reason (a short category first, then details). */
export const difference = (
  shouldFail: boolean,
  reference: ApiReply,
  ours: ApiReply
): string | undefined => {
  if (shouldFail) {
    if (reference.status !== "error") return "reference: did not fail"
    return ours.status === "error" ? undefined : "should fail: we answered"
  }
  if (reference.status === "error") return `reference: ${reference.error}`
  if (ours.status === "error") return `our error: ${ours.errorType}: ${ours.error.slice(0, 120)}`
  if (reference.data.resultType !== ours.data.resultType)
    return `result type: ${ours.data.resultType} for ${reference.data.resultType}`
  const expected = asSeries(reference)
  const actual = asSeries(ours)
  if (typeof expected === "string" || typeof actual === "string")
    return `unexpected ${String(actual)}`
  const sorted = [...actual].sort((a, b) => (key(a.metric) < key(b.metric) ? -1 : 1))
  const wanted = [...expected].sort((a, b) => (key(a.metric) < key(b.metric) ? -1 : 1))
  if (sorted.length !== wanted.length) return `series count: ${sorted.length} for ${wanted.length}`
  for (let i = 0; i < wanted.length; i++) {
    const w = wanted[i]!
    const a = sorted[i]!
    if (key(w.metric) !== key(a.metric))
      return `labels: ${JSON.stringify(a.metric)} for ${JSON.stringify(w.metric)}`
    if (w.values.length !== a.values.length)
      return `point count: ${a.values.length} for ${w.values.length}`
    for (let j = 0; j < w.values.length; j++) {
      const [wt, wv] = w.values[j]!
      const [at, av] = a.values[j]!
      if (Math.round(wt * 1000) !== Math.round(at * 1000)) return `timestamps: ${at} for ${wt}`
      if (!sameValue(parse(wv), parse(av))) return `values: ${av} for ${wv} at ${wt}`
    }
  }
  return undefined
}
