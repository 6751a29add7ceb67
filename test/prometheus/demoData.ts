/**
 * Demo-service-equivalent samples for the PromQL compliance queries
 * (as the upstream compliance tester describes equivalent data): three
 * instances scraped every 5 s at their own millisecond offsets, the exact metric names,
 * labels and instance strings, a classic histogram with 26 buckets per label set, and
 * real stale markers for `demo_intermittent_metric` in odd minutes. Deterministic: one
 * seeded generator, fixed times.
 */
import type { TestSeries } from "../support/remoteWrite.js"
import { STALE_MARKER } from "../support/remoteWrite.js"

/** 2026-01-01T00:00:00Z: the first scrape period. */
export const DATA_START = Date.UTC(2026, 0, 1)
export const DATA_MINUTES = 100
export const DATA_END = DATA_START + DATA_MINUTES * 60_000
const SCRAPE = 5000
// Not 0 mod 1000, so no sample sits on a window edge of a query whose times end in .123.
const INSTANCES = [
  { instance: "demo.promlabs.com:10000", offset: 1234 },
  { instance: "demo.promlabs.com:10001", offset: 2345 },
  { instance: "demo.promlabs.com:10002", offset: 3456 }
]

const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0
  let t = seed
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

const BOUNDS = Array.from({ length: 25 }, (_, i) => 0.0001 * 1.5 ** i)
const MIB = 1024 * 1024

const ENDPOINTS = [
  { method: "GET", path: "/api/foo", rate: 30, latency: 0.01 },
  { method: "GET", path: "/api/bar", rate: 15, latency: 0.02 },
  { method: "POST", path: "/api/foo", rate: 3, latency: 0.015 },
  { method: "POST", path: "/api/bar", rate: 4, latency: 0.05 }
]

/**
 * Series in the order they were first written to. A series is named by a short key and
 * its labels made once (a label object and its JSON a sample took seconds).
 */
class SeriesSet {
  private readonly byKey = new Map<
    string,
    { labels: Record<string, string>; samples: Array<[number, number | bigint]> }
  >()
  add(key: string, labels: () => Record<string, string>, t: number, value: number | bigint) {
    let series = this.byKey.get(key)
    if (!series) this.byKey.set(key, (series = { labels: labels(), samples: [] }))
    series.samples.push([t, value])
  }
  all() {
    return [...this.byKey.values()]
  }
}

export const demoSeries = (): ReadonlyArray<TestSeries> => {
  const random = mulberry32(20260101)
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
  const out = new SeriesSet()
  for (const { instance, offset } of INSTANCES) {
    const base = { job: "demo", instance }
    const memory: Record<string, number> = {
      used: 1200 * MIB,
      cached: 2500 * MIB,
      buffers: 165 * MIB
    }
    const memoryBase = { ...memory }
    const cpu: Record<string, number> = { user: 1000, system: 700, idle: 5000 }
    const cpuRates: Record<string, number> = { user: 1.2, system: 0.8, idle: 2.0 }
    let disk = 16e9 + Math.floor(random() * 1e9)
    let batch = 0
    // `counts` are cumulative, as the buckets are; `fresh` counts this scrape's
    // observations by the first bucket they fall in, added to `counts` when exposed.
    const histogram = new Map<
      string,
      { counts: Array<number>; fresh: Array<number>; sum: number; count: number }
    >()
    for (let t = DATA_START + offset; t < DATA_END; t += SCRAPE) {
      for (const type of ["used", "cached", "buffers"]) {
        memory[type] = Math.round(memory[type]! + (random() - 0.5) * 2 * 30 * MIB)
        if (Math.abs(memory[type]! - memoryBase[type]!) > memoryBase[type]! / 2)
          memory[type] = memoryBase[type]!
        out.add(
          `memory ${instance} ${type}`,
          () => ({ __name__: "demo_memory_usage_bytes", ...base, type }),
          t,
          memory[type]!
        )
      }
      out.add(
        `memory ${instance} free`,
        () => ({ __name__: "demo_memory_usage_bytes", ...base, type: "free" }),
        t,
        8 * 1024 * MIB - memory.used! - memory.cached! - memory.buffers!
      )
      out.add(`cpus ${instance}`, () => ({ __name__: "demo_num_cpus", ...base }), t, 4)
      for (const mode of ["user", "system", "idle"]) {
        cpu[mode] = cpu[mode]! + (cpuRates[mode]! + (random() - 0.5) * 0.8) * (SCRAPE / 1000)
        out.add(
          `cpu ${instance} ${mode}`,
          () => ({ __name__: "demo_cpu_usage_seconds_total", ...base, mode }),
          t,
          cpu[mode]!
        )
      }
      disk += Math.floor((250_000 + random() * 500_000) * (SCRAPE / 1000))
      out.add(`disk ${instance}`, () => ({ __name__: "demo_disk_usage_bytes", ...base }), t, disk)
      // A batch finishes about 11 s into each minute; three in four succeed.
      const minute = Math.floor((t - DATA_START) / 60_000)
      const finish = DATA_START + minute * 60_000 + 11_000 + Math.floor(random() * 500)
      if (t >= finish && t - SCRAPE < finish && random() < 0.75)
        batch = finish / 1000 + random() * 0.001
      out.add(
        `batch ${instance}`,
        () => ({ __name__: "demo_batch_last_success_timestamp_seconds", ...base }),
        t,
        batch
      )
      // Exposed only in even minutes; the first scrape of an odd minute writes the marker.
      const intermittent = () => ({ __name__: "demo_intermittent_metric", ...base })
      if (minute % 2 === 0) out.add(`intermittent ${instance}`, intermittent, t, 1)
      else if (t - SCRAPE < DATA_START + minute * 60_000)
        out.add(`intermittent ${instance}`, intermittent, t, STALE_MARKER)
      const swing = 1 + 0.3 * Math.sin((2 * Math.PI * (t - DATA_START)) / 3_600_000)
      const combos = ENDPOINTS.flatMap((e) => [
        { ...e, status: "200", share: 0.99 },
        { ...e, status: "500", share: 0.01 }
      ]).concat([
        {
          method: "GET",
          path: "/api/nonexistent",
          rate: 1,
          latency: 0.001,
          status: "404",
          share: 1
        }
      ])
      for (const combo of combos) {
        const key = `${combo.method} ${combo.path} ${combo.status}`
        let state = histogram.get(key)
        if (!state)
          histogram.set(
            key,
            (state = { counts: BOUNDS.map(() => 0), fresh: BOUNDS.map(() => 0), sum: 0, count: 0 })
          )
        const requests = Math.round(
          combo.rate * combo.share * swing * (SCRAPE / 1000) + random() * 2
        )
        for (let r = 0; r < requests; r++) {
          const latency = Math.max(0.00005, combo.latency * (1 + 0.1 * normal()))
          state.sum += latency
          state.count++
          const first = BOUNDS.findIndex((bound) => latency <= bound)
          if (first >= 0) state.fresh[first]!++
        }
        const labels = () => ({
          ...base,
          method: combo.method,
          path: combo.path,
          status: combo.status
        })
        const series = `${instance} ${key}`
        const name = "demo_api_request_duration_seconds"
        let fresh = 0
        BOUNDS.forEach((bound, i) => {
          fresh += state!.fresh[i]!
          state!.fresh[i] = 0
          state!.counts[i]! += fresh
          out.add(
            `bucket ${series} ${i}`,
            () => ({ __name__: `${name}_bucket`, ...labels(), le: String(bound) }),
            t,
            state!.counts[i]!
          )
        })
        out.add(
          `bucket ${series} +Inf`,
          () => ({ __name__: `${name}_bucket`, ...labels(), le: "+Inf" }),
          t,
          state.count
        )
        out.add(`sum ${series}`, () => ({ __name__: `${name}_sum`, ...labels() }), t, state.sum)
        out.add(
          `count ${series}`,
          () => ({ __name__: `${name}_count`, ...labels() }),
          t,
          state.count
        )
      }
    }
  }
  return out.all()
}

/** The same samples cut into one-minute slices, oldest first, so a TSDB head takes them all. */
export const minuteSlices = (
  series: ReadonlyArray<TestSeries>
): ReadonlyArray<ReadonlyArray<TestSeries>> => {
  const slices = Array.from({ length: DATA_MINUTES }, () => new Array<TestSeries>())
  for (const one of series) {
    // One pass over the series' samples (keeping their order), not one per minute.
    const byMinute = new Map<number, Array<TestSeries["samples"][number]>>()
    for (const sample of one.samples) {
      const minute = Math.floor((sample[0] - DATA_START) / 60_000)
      if (minute < 0 || minute >= DATA_MINUTES) continue
      let samples = byMinute.get(minute)
      if (samples === undefined) byMinute.set(minute, (samples = []))
      samples.push(sample)
    }
    for (const [minute, samples] of byMinute) slices[minute]!.push({ labels: one.labels, samples })
  }
  return slices
}

/**
 * A histogram whose first bucket holds exactly a tenth of the observations and whose next
 * bucket is empty, so `histogram_quantile(0.1, rate(…))` lands on the boundary between
 * them: which side it picks depends on the last bit of each rate, that is on the order
 * of the multiplications in the rate's extrapolation. The demo histogram hit such a
 * boundary at one step of one series on one machine's data.
 */
export const boundarySeries = (): ReadonlyArray<TestSeries> => {
  const bucket = (le: string, value: (i: number) => number): TestSeries => ({
    labels: { __name__: "sluice_boundary_bucket", le },
    samples: Array.from({ length: (DATA_MINUTES * 60_000) / SCRAPE }, (_, i) => [
      DATA_START + 1234 + i * SCRAPE,
      value(i)
    ])
  })
  return [
    bucket("1", (i) => 1000 + i),
    bucket("2", (i) => 1000 + i),
    bucket("+Inf", (i) => 10_000 + 10 * i)
  ]
}
