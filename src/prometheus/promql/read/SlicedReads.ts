/**
 * A selector's samples read in slices when there are many: each statement's result stays
 * within a bounded size (the engine refuses results past the service's result-size
 * limit, and a whole result is held two or three times over on its way out of the
 * engine). Slices are batches of series, in the order the samples table keeps them
 * (`id, timestamp`), so each statement reads its own rows and no other's: slices of time
 * made every statement decompress part of every series' rows, and held that much more
 * in the engine at once. A series with more samples than a slice is read alone in
 * slices of time, its runs copied into one set of arrays sized beforehand from its
 * count, so a query holds its samples about once.
 */
import type { SampleRun } from "./SampleRows.js"

/**
 * Samples a read tries whole (12–16 bytes each): a day of 200 series at 15 s (1.2M) is
 * one statement. The engine process's peak memory grows with a statement's samples
 * (sorting, the arrays, the result and its copies on the way out), so this bounds it
 * for every read.
 */
export const WHOLE_SAMPLES = 1_500_000

/**
 * Samples a slice of a larger read holds at most: what the engine's process and the
 * service hold for one statement on top of the samples already read.
 */
export const SLICE_SAMPLES = 1_000_000

export interface SeriesBatch {
  readonly ids: ReadonlyArray<string>
  readonly samples: number
}

/**
 * The counted series (decimal ids) in batches of at most `max` samples each, in id
 * order; a series with more than `max` samples is a batch of its own.
 */
export const seriesBatches = (
  counts: ReadonlyMap<string, number>,
  max: number
): Array<SeriesBatch> => {
  const ids = [...counts.keys()].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
  const batches: Array<SeriesBatch> = []
  let batch: Array<string> = []
  let samples = 0
  for (const id of ids) {
    const count = counts.get(id)!
    if (batch.length > 0 && samples + count > max) {
      batches.push({ ids: batch, samples })
      batch = []
      samples = 0
    }
    batch.push(id)
    samples += count
  }
  if (batch.length > 0) batches.push({ ids: batch, samples })
  return batches
}

/** `(from, to]` cut into `slices` consecutive whole-ms parts, oldest first. */
export const timeSlices = (from: number, to: number, slices: number) => {
  const first = Math.floor(from)
  const span = Math.floor(to) - first
  return Array.from({ length: slices }, (_, k) => ({
    from: first + Math.round((k * span) / slices),
    to: first + Math.round(((k + 1) * span) / slices)
  }))
}

interface Gathered {
  times: Float64Array
  values: Float64Array
  stale: Uint8Array
  length: number
}

/** Runs of consecutive slices joined per series, into arrays of the counted size. */
export class SliceGatherer {
  private readonly byId = new Map<string, Gathered>()

  constructor(counts: ReadonlyMap<string, number>) {
    for (const [id, count] of counts)
      this.byId.set(id, {
        times: new Float64Array(count),
        values: new Float64Array(count),
        stale: new Uint8Array(count),
        length: 0
      })
  }

  /** One slice's runs; a slice is later than every slice added before it. */
  add(runs: ReadonlyArray<SampleRun>) {
    for (const run of runs) {
      let into = this.byId.get(run.id)
      if (into === undefined)
        this.byId.set(
          run.id,
          (into = {
            times: new Float64Array(0),
            values: new Float64Array(0),
            stale: new Uint8Array(0),
            length: 0
          })
        )
      const length = into.length + run.times.length
      // Written since the samples were counted: the arrays grow.
      if (length > into.times.length) {
        const grown = Math.max(length, into.times.length * 2)
        into.times = copyInto(new Float64Array(grown), into.times, into.length)
        into.values = copyInto(new Float64Array(grown), into.values, into.length)
        into.stale = copyInto(new Uint8Array(grown), into.stale, into.length)
      }
      into.times.set(run.times, into.length)
      into.values.set(run.values, into.length)
      into.stale.set(run.stale, into.length)
      into.length = length
    }
  }

  runs(): Array<SampleRun> {
    const out: Array<SampleRun> = []
    for (const [id, { times, values, stale, length }] of this.byId)
      if (length > 0)
        out.push({
          id,
          times: times.subarray(0, length),
          values: values.subarray(0, length),
          stale: stale.subarray(0, length)
        })
    return out
  }
}

const copyInto = <A extends Float64Array | Uint8Array>(target: A, source: A, length: number) => {
  target.set(source.subarray(0, length))
  return target
}
