/**
 * Samples kept between PromQL queries: a read is given back only under the version it
 * was made under, a window inside a kept one is cut from it, and the budget of bytes
 * pushes out the least recently used.
 */
import { describe, expect, it } from "vitest"
import { makeReadCache } from "../../src/prometheus/promql/read/ReadCache.js"
import type { RawSeries } from "../../src/prometheus/promql/evaluator/Values.js"

const series = (
  name: string,
  samples: ReadonlyArray<[number, number]>,
  staleAt: Array<number> = []
): RawSeries => ({
  labels: { __name__: name },
  times: Float64Array.from(samples, ([t]) => t),
  values: Float64Array.from(samples, ([, v]) => v),
  stale: Uint8Array.from(samples, ([t]) => (staleAt.includes(t) ? 1 : 0))
})

const plain = (kept: ReadonlyArray<RawSeries> | undefined) =>
  kept?.map((one) => ({
    labels: one.labels,
    times: [...one.times],
    values: [...one.values],
    stale: [...one.stale]
  }))

const read = [
  series(
    "a",
    [
      [10, 1],
      [20, 2],
      [30, 3],
      [40, 4]
    ],
    [30]
  ),
  series("b", [[35, 7]])
]

describe("ReadCache", () => {
  it("gives a read back for its own window and version only", () => {
    const cache = makeReadCache(1 << 20)
    cache.put("sel", "v1", 0, 40, read)
    expect(cache.get("sel", "v1", 0, 40)).toBe(read)
    expect(cache.get("sel", "v2", 0, 40)).toBeUndefined()
    // The out-of-date read was dropped, not kept beside a newer one.
    expect(cache.get("sel", "v1", 0, 40)).toBeUndefined()
    expect(cache.size()).toBe(0)
  })

  it("cuts a window inside a kept read: (from, to], series with no sample left out", () => {
    const cache = makeReadCache(1 << 20)
    cache.put("sel", "v1", 0, 40, read)
    expect(plain(cache.get("sel", "v1", 10, 30))).toEqual([
      { labels: { __name__: "a" }, times: [20, 30], values: [2, 3], stale: [0, 1] }
    ])
    expect(plain(cache.get("sel", "v1", 30, 40))).toEqual([
      { labels: { __name__: "a" }, times: [40], values: [4], stale: [0] },
      { labels: { __name__: "b" }, times: [35], values: [7], stale: [0] }
    ])
    // Reaching past the kept window is not covered.
    expect(cache.get("sel", "v1", 0, 41)).toBeUndefined()
    expect(cache.get("sel", "v1", -1, 40)).toBeUndefined()
    expect(cache.get("other", "v1", 10, 30)).toBeUndefined()
  })

  it("keeps several windows of a selector and finds the one that covers", () => {
    const cache = makeReadCache(1 << 20)
    const early = [series("a", [[10, 1]])]
    const late = [series("a", [[110, 5]])]
    cache.put("sel", "v1", 0, 20, early)
    cache.put("sel", "v1", 100, 120, late)
    expect(cache.get("sel", "v1", 0, 20)).toBe(early)
    expect(cache.get("sel", "v1", 100, 120)).toBe(late)
    expect(cache.get("sel", "v1", 10, 110)).toBeUndefined()
  })

  it("pushes out the least recently used past its budget, and keeps nothing at 0", () => {
    const one = [
      series(
        "a",
        Array.from({ length: 100 }, (_, i): [number, number] => [i, i])
      )
    ]
    // 100 samples of 17 bytes and the shares for labels and entry: 2,020 bytes a read, so
    // four fit and a fifth pushes one out.
    const cache = makeReadCache(10_000)
    cache.put("first", "v", 0, 100, one)
    cache.put("second", "v", 0, 100, one)
    cache.put("third", "v", 0, 100, one)
    expect(cache.get("first", "v", 0, 100)).toBe(one)
    cache.put("fourth", "v", 0, 100, one)
    cache.put("fifth", "v", 0, 100, one)
    expect(cache.size()).toBe(4 * 2_020)
    // "second" was the least recently used: "first" was read after it.
    expect(cache.get("second", "v", 0, 100)).toBeUndefined()
    expect(cache.get("first", "v", 0, 100)).toBe(one)
    expect(cache.get("fifth", "v", 0, 100)).toBe(one)

    const none = makeReadCache(0)
    none.put("first", "v", 0, 100, one)
    expect(none.get("first", "v", 0, 100)).toBeUndefined()
  })

  it("keeps a read of up to half its budget, not a larger one", () => {
    const samples = (n: number) => [
      series(
        "a",
        Array.from({ length: n }, (_, i): [number, number] => [i, i])
      )
    ]
    // 17 bytes a sample and 320 for the shares: 800 samples are 13,920 bytes, 1,000 are
    // 17,320, either side of half of 30,000.
    const cache = makeReadCache(30_000)
    const big = samples(1000)
    cache.put("big", "v", 0, 1000, big)
    expect(cache.get("big", "v", 0, 1000)).toBeUndefined()
    expect(cache.size()).toBe(0)
    const half = samples(800)
    cache.put("half", "v", 0, 800, half)
    expect(cache.get("half", "v", 0, 800)).toBe(half)
    expect(cache.size()).toBe(13_920)
  })
})
