/**
 * Samples read for a selector, kept for later queries while the tables' version holds
 * (TablesVersions.ts), within a budget of bytes, least recently used first out.
 *
 * Queries name the same selectors over and over: a Grafana dashboard's panels share
 * metrics and one time range, and the compliance queries read few distinct windows, each
 * many times. A read costs the engine far more than the whole evaluation of most queries.
 * A window inside a kept one is cut from it (`rate(x[1m])` after `rate(x[5m])` over the
 * same range), never read again.
 *
 * Kept series are shared with the queries that get them: evaluation never writes into a
 * `RawSeries` (Values.ts).
 */
import { samplesWithin } from "./Selectors.js"
import type { RawSeries } from "../evaluator/Values.js"

interface Kept {
  readonly selector: string
  readonly version: string
  readonly from: number
  readonly to: number
  readonly series: ReadonlyArray<RawSeries>
  readonly bytes: number
}

/** A series' arrays and a share for its labels and the entry itself. */
const sizeOf = (series: ReadonlyArray<RawSeries>) =>
  series.reduce(
    (sum, one) => sum + one.times.byteLength + one.values.byteLength + one.stale.byteLength + 64,
    256
  )

/** `maxBytes` 0 keeps nothing. */
export const makeReadCache = (maxBytes: number) => {
  // Insertion order is use order: a hit is moved to the end, eviction takes the front.
  const kept = new Map<string, Kept>()
  // Each selector's kept windows, to find one that covers a window asked for.
  const windows = new Map<string, Set<string>>()
  let bytes = 0

  const drop = (selector: string, key: string) => {
    const entry = kept.get(key)
    if (entry === undefined) return
    bytes -= entry.bytes
    kept.delete(key)
    const keys = windows.get(selector)!
    keys.delete(key)
    if (keys.size === 0) windows.delete(selector)
  }

  /** A kept read of `selector` under `version` that covers `(from, to]`; others dropped when out of date. */
  const covering = (selector: string, version: string, from: number, to: number) => {
    for (const key of windows.get(selector) ?? []) {
      const entry = kept.get(key)!
      if (entry.version !== version) drop(selector, key)
      else if (entry.from <= from && entry.to >= to) return [key, entry] as const
    }
    return undefined
  }

  return {
    /** The samples of `selector` in `(from, to]` if a read under `version` covered them. */
    get: (selector: string, version: string, from: number, to: number) => {
      const found = covering(selector, version, from, to)
      if (found === undefined) return undefined
      const [key, entry] = found
      kept.delete(key)
      kept.set(key, entry)
      return entry.from === from && entry.to === to
        ? entry.series
        : samplesWithin(entry.series, from, to)
    },

    /** Keeps a read of `selector` in `(from, to]` made under `version`. */
    put: (
      selector: string,
      version: string,
      from: number,
      to: number,
      series: ReadonlyArray<RawSeries>
    ) => {
      const size = sizeOf(series)
      // One read may take at most half the budget: it never pushes out all the others,
      // and a dashboard's day of samples can still be kept (test/bench/README.md).
      if (size > maxBytes / 2 || covering(selector, version, from, to) !== undefined) return
      const key = `${selector}\u0000${from}\u0000${to}`
      kept.set(key, { selector, version, from, to, series, bytes: size })
      let keys = windows.get(selector)
      if (keys === undefined) windows.set(selector, (keys = new Set()))
      keys.add(key)
      bytes += size
      for (const [oldest, entry] of kept) {
        if (bytes <= maxBytes) break
        drop(entry.selector, oldest)
      }
    },

    /** Bytes kept now. */
    size: () => bytes
  }
}

export type ReadCache = ReturnType<typeof makeReadCache>
