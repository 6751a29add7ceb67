/**
 * What a remote write carries that sluice does not store (exemplars, native-histogram
 * samples): the decoder counts it and keeps the float samples beside it, and the service's
 * log says how many arrived, the first time at once and then at most once a minute
 * (under a `TestClock`, with the log captured).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, HashMap, Logger, TestClock, TestContext } from "effect"
import { decodeRemoteWrite, makeDecoderMemory } from "../../src/prometheus/RemoteWriteDecode.js"
import { makeUnstoredNotices } from "../../src/prometheus/RemoteWrite.js"
import { remoteWriteBody } from "../support/remoteWrite.js"

const T0 = 1_700_000_000_000

describe("what remote write carries and sluice does not store", () => {
  it.effect("is counted, and the float samples beside it are kept", () =>
    Effect.gen(function* () {
      const body = remoteWriteBody([
        {
          labels: { __name__: "req_seconds", job: "a" },
          samples: [
            [T0, 1],
            [T0 + 15_000, 2]
          ],
          exemplars: [
            [T0, 0.25],
            [T0 + 15_000, 0.5]
          ]
        },
        {
          labels: { __name__: "req_native", job: "a" },
          samples: [],
          histograms: [T0, T0 + 15_000, T0 + 30_000]
        }
      ])
      const decoded = yield* decodeRemoteWrite(body, 1 << 20, makeDecoderMemory())
      expect(decoded.unstored).toEqual({ exemplars: 2, histograms: 3 })
      expect(decoded.samples).toBe(2)
      expect(decoded.series.map((s) => [s.labels.__name__, s.samples])).toEqual([
        ["req_seconds", 2],
        ["req_native", 0]
      ])
    })
  )

  it.live("is told in the log at once, then at most once a minute with the counts since", () =>
    Effect.gen(function* () {
      const logged: Array<{ message: unknown; annotations: Record<string, unknown> }> = []
      const capture = Logger.make(({ message, annotations }) => {
        logged.push({
          message,
          annotations: Object.fromEntries(HashMap.toEntries(annotations))
        })
      })
      const notice = makeUnstoredNotices()
      const counts = () => logged.map((entry) => entry.annotations)
      yield* Effect.gen(function* () {
        yield* notice({ exemplars: 0, histograms: 0 })
        expect(logged).toEqual([])
        yield* notice({ exemplars: 2, histograms: 1 })
        expect(counts()).toEqual([{ exemplars: 2, histograms: 1 }])
        expect(String(logged[0]!.message)).toContain("not stored")
        yield* TestClock.adjust("30 seconds")
        yield* notice({ exemplars: 0, histograms: 3 })
        yield* TestClock.adjust("29 seconds")
        yield* notice({ exemplars: 4, histograms: 0 })
        expect(logged.length).toBe(1)
        // A minute after the last notice: everything since, in one line.
        yield* TestClock.adjust("1 second")
        yield* notice({ exemplars: 1, histograms: 0 })
        expect(counts()).toEqual([
          { exemplars: 2, histograms: 1 },
          { exemplars: 5, histograms: 3 }
        ])
      }).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
    }).pipe(Effect.provide(TestContext.TestContext))
  )
})
