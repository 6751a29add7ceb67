/**
 * `limitk` and `limit_ratio` (Prometheus 3): which members of a group they keep. `limitk`
 * keeps the first k in input (label) order; `limit_ratio` keeps a series when its label
 * hash, read as a fraction of 2^64 - 1, is below the ratio (at or above 1 + ratio for a
 * negative one), so a series stays chosen at every step and `limit_ratio(r, v)` and
 * `limit_ratio(-(1 - r), v)` split `v` in two.
 */
import type { Labels } from "../../SeriesLabels.js"
import { labelsHash } from "./LabelsHash.js"
import { EvaluationError } from "./Values.js"

const MAX_UINT64 = Number((1n << 64n) - 1n)

export const limitK = <M>(members: ReadonlyArray<M>, k: number): ReadonlyArray<M> => {
  const count = Math.trunc(k)
  return count >= 1 ? members.slice(0, count) : []
}

/** The ratio as Prometheus uses it: NaN is an error, values past ±1 are ±1. */
export const limitRatio = (ratio: number) => {
  if (Number.isNaN(ratio)) throw new EvaluationError(`Ratio value ${ratio} is NaN`)
  return Math.max(-1, Math.min(1, ratio))
}

export const ratioSampler = () => {
  const offsets = new Map<Labels, number>()
  const offsetOf = (labels: Labels) => {
    let offset = offsets.get(labels)
    if (offset === undefined)
      offsets.set(labels, (offset = Number(labelsHash(labels)) / MAX_UINT64))
    return offset
  }
  return (labels: Labels, ratio: number) => {
    const offset = offsetOf(labels)
    return ratio >= 0 ? offset < ratio : offset >= 1 + ratio
  }
}
