/** `histogram_quantile` over classic buckets, as Prometheus computes it. */
import type { Labels } from "../SeriesLabels.js"
import type { Value } from "./Values.js"
import { EvaluationError, labelsKey, scalarAt, VectorBuilder } from "./Values.js"

interface Bucket {
  upper: number
  count: number
}

export const bucketQuantile = (q: number, input: ReadonlyArray<Bucket>): number => {
  if (Number.isNaN(q)) return NaN
  if (q < 0) return -Infinity
  if (q > 1) return Infinity
  const sorted = [...input].sort((a, b) => a.upper - b.upper)
  if (sorted.length === 0 || sorted[sorted.length - 1]!.upper !== Infinity) return NaN
  // Buckets of one bound are summed; counts are made monotonic (a running maximum).
  const buckets: Array<Bucket> = []
  for (const b of sorted) {
    const last = buckets[buckets.length - 1]
    if (last && last.upper === b.upper) last.count += b.count
    else buckets.push({ ...b })
  }
  for (let i = 1; i < buckets.length; i++)
    if (buckets[i]!.count < buckets[i - 1]!.count) buckets[i]!.count = buckets[i - 1]!.count
  if (buckets.length < 2) return NaN
  const observations = buckets[buckets.length - 1]!.count
  if (observations === 0) return NaN
  let rank = q * observations
  let b = buckets.findIndex((bucket) => bucket.count >= rank)
  if (b === -1) b = buckets.length - 1
  if (b === buckets.length - 1) return buckets[buckets.length - 2]!.upper
  if (b === 0 && buckets[0]!.upper <= 0) return buckets[0]!.upper
  let start = 0
  const end = buckets[b]!.upper
  let count = buckets[b]!.count
  if (b > 0) {
    start = buckets[b - 1]!.upper
    count -= buckets[b - 1]!.count
    rank -= buckets[b - 1]!.count
  }
  return start + (end - start) * (rank / count)
}

const parseBound = (text: string) => {
  const lower = text.trim().toLowerCase()
  if (lower === "+inf" || lower === "inf") return Infinity
  if (lower === "-inf") return -Infinity
  const value = Number(text)
  return text.trim() === "" ? NaN : value
}

export const histogramQuantile = (phi: Value, input: Value, steps: number): Value => {
  if (input.kind !== "vector")
    throw new EvaluationError("histogram_quantile expects an instant vector", true)
  const groups = new Map<
    string,
    { labels: Labels; members: Array<{ upper: number; values: ReadonlyArray<number | undefined> }> }
  >()
  for (const s of input.series) {
    const le = s.labels.le
    if (le === undefined) continue
    const upper = parseBound(le)
    if (Number.isNaN(upper)) continue
    const { le: _, __name__: __, ...rest } = s.labels
    const key = labelsKey(rest)
    let group = groups.get(key)
    if (!group) groups.set(key, (group = { labels: rest, members: [] }))
    group.members.push({ upper, values: s.values })
  }
  const out = new VectorBuilder(steps)
  for (const group of groups.values()) {
    for (let step = 0; step < steps; step++) {
      const buckets = group.members.flatMap((m) => {
        const count = m.values[step]
        return count === undefined ? [] : [{ upper: m.upper, count }]
      })
      if (buckets.length === 0) continue
      out.add(group.labels, step, bucketQuantile(scalarAt(phi, step), buckets))
    }
  }
  return out.vector()
}
