/** `histogram_quantile` over classic buckets, as Prometheus computes it. */
import type { Labels } from "../../SeriesLabels.js"
import type { Value } from "./Values.js"
import { EvaluationError, labelsKey, scalarAt, VectorBuilder } from "./Values.js"

/**
 * The quantile of buckets already sorted by bound: `uppers` and `counts` at `0..n-1`
 * (both rewritten in place). Buckets of one bound are summed; counts are made monotonic
 * (a running maximum).
 */
const sortedBucketQuantile = (
  q: number,
  uppers: Float64Array,
  counts: Float64Array,
  n: number
): number => {
  if (Number.isNaN(q)) return NaN
  if (q < 0) return -Infinity
  if (q > 1) return Infinity
  if (n === 0 || uppers[n - 1] !== Infinity) return NaN
  let length = 0
  for (let i = 0; i < n; i++) {
    if (length > 0 && uppers[length - 1] === uppers[i]) counts[length - 1]! += counts[i]!
    else {
      uppers[length] = uppers[i]!
      counts[length] = counts[i]!
      length++
    }
  }
  for (let i = 1; i < length; i++) if (counts[i]! < counts[i - 1]!) counts[i] = counts[i - 1]!
  if (length < 2) return NaN
  const observations = counts[length - 1]!
  if (observations === 0) return NaN
  let rank = q * observations
  let b = 0
  while (b < length && !(counts[b]! >= rank)) b++
  if (b === length) b = length - 1
  if (b === length - 1) return uppers[length - 2]!
  if (b === 0 && uppers[0]! <= 0) return uppers[0]!
  let start = 0
  const end = uppers[b]!
  let count = counts[b]!
  if (b > 0) {
    start = uppers[b - 1]!
    count -= counts[b - 1]!
    rank -= counts[b - 1]!
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
    // Bounds do not change between steps: sorted once per group (stable, as before).
    const members = group.members.sort((a, b) => a.upper - b.upper)
    const uppers = new Float64Array(members.length)
    const counts = new Float64Array(members.length)
    for (let step = 0; step < steps; step++) {
      let n = 0
      for (const member of members) {
        const count = member.values[step]
        if (count === undefined) continue
        uppers[n] = member.upper
        counts[n] = count
        n++
      }
      if (n === 0) continue
      out.add(group.labels, step, sortedBucketQuantile(scalarAt(phi, step), uppers, counts, n))
    }
  }
  return out.vector()
}
