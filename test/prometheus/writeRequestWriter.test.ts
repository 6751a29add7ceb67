/**
 * The write-ahead log's remote-write bodies: what `remoteWriteBody` writes decodes to the
 * same write (series, timestamps, value bits to the NaN payload, metadata), both through
 * the receiver's decoder, into the samples table's insert text, and through the
 * generated protobuf decoder.
 */
import { fromBinary } from "@bufbuild/protobuf"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as Snappy from "snappyjs"
import {
  MetricMetadata_MetricType,
  WriteRequestSchema
} from "../../src/prometheus/gen/prometheus/remote_pb.js"
import type { DecodedWrite } from "../../src/prometheus/RemoteWriteDecode.js"
import { decodeRemoteWrite, makeDecoderMemory } from "../../src/prometheus/RemoteWriteDecode.js"
import { STALE_BITS } from "../../src/prometheus/SampleBits.js"
import type { Labels } from "../../src/prometheus/SeriesLabels.js"
import { seriesId } from "../../src/prometheus/SeriesLabels.js"
import type { SeriesSamples, SeriesWrite } from "../../src/prometheus/WriteRequestWriter.js"
import { remoteWriteBody } from "../../src/prometheus/WriteRequestWriter.js"
import { samplesRows } from "../support/remoteWrite.js"

const LIMIT = 1 << 20
const T0 = 1_700_000_000_000

const bitsOf = (value: number) => {
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, value, true)
  return view.getBigUint64(0, true)
}
const INF_BITS = 0x7ff0000000000000n
const NEGATIVE_ZERO_BITS = 0x8000000000000000n
// Quiet NaNs with payloads other than the stale marker's, one of them negative.
const PAYLOAD_NAN_BITS = 0x7ff8000000000abcn
const NEGATIVE_NAN_BITS = 0xfff0000000000001n

const series = (
  labels: Labels,
  samples: ReadonlyArray<readonly [number, bigint]>
): SeriesSamples => ({
  labels,
  timestamps: Float64Array.from(samples, ([time]) => time),
  bits: BigUint64Array.from(samples, ([, bits]) => bits)
})

const written = [
  series({ __name__: "up", job: "node", instance: "a:9100" }, [
    [T0, bitsOf(1)],
    [T0 + 15_000, bitsOf(1.5)],
    [T0 + 30_000, STALE_BITS]
  ]),
  series({ __name__: "temperature", zone: "Zürich ☃", city: "東京", emoji: "🌡️" }, [
    [-1, INF_BITS],
    [-1_700_000_000_123, NEGATIVE_ZERO_BITS],
    [0, bitsOf(-273.15)],
    [Number.MAX_SAFE_INTEGER, PAYLOAD_NAN_BITS]
  ]),
  series({ __name__: "only_one" }, [[T0, NEGATIVE_NAN_BITS]]),
  series({ __name__: "no_samples", job: "x" }, [])
]

const write: SeriesWrite = {
  series: written,
  metadata: [
    { metric: "up", type: "gauge", help: "Whether the target is up.", unit: "" },
    { metric: "http_requests_total", type: "counter", help: "Requests — all of them.", unit: "" },
    { metric: "request_duration_seconds", type: "histogram", help: "", unit: "seconds" },
    { metric: "rpc_latency", type: "summary", help: "RPC latency", unit: "seconds" },
    { metric: "build", type: "info", help: "", unit: "" },
    { metric: "feature", type: "stateset", help: "", unit: "" },
    { metric: "queue_fill", type: "gaugehistogram", help: "", unit: "" },
    { metric: "mystery", type: "unknown", help: "Nobody knows.", unit: "" }
  ]
}

const decoded = (body: Uint8Array) => decodeRemoteWrite(body, LIMIT, makeDecoderMemory())

/**
 * What the decoder made of `expected`: each series' id, labels, count and time span, and
 * the samples table's insert text, one `id \t ms \t bits` line per sample in the order
 * sent (the bits' decimal text from BigInt here, from two 32-bit words there).
 */
const expectSameWrite = (actual: DecodedWrite, expected: SeriesWrite) => {
  expect(actual.metadata).toEqual(expected.metadata)
  expect(actual.samples).toBe(expected.series.reduce((sum, one) => sum + one.timestamps.length, 0))
  expect(actual.series.map(({ id, labels, samples }) => ({ id, labels, samples }))).toEqual(
    expected.series.map((one) => ({
      id: seriesId(one.labels),
      labels: one.labels,
      samples: one.timestamps.length
    }))
  )
  actual.series.forEach((one, index) => {
    const times = Array.from(expected.series[index]!.timestamps)
    if (times.length === 0) return
    expect([one.minTime, one.maxTime]).toEqual([Math.min(...times), Math.max(...times)])
  })
  expect(samplesRows(actual.rows)).toEqual(
    expected.series.flatMap((one) =>
      Array.from(one.timestamps, (time, i) => `${seriesId(one.labels)}\t${time}\t${one.bits[i]}`)
    )
  )
}

describe("remoteWriteBody", () => {
  it.effect("decodes back to the same write, value bits and all", () =>
    Effect.gen(function* () {
      expectSameWrite(yield* decoded(remoteWriteBody(write)), write)
    })
  )

  it.effect("an empty write is a body that decodes to an empty write", () =>
    Effect.gen(function* () {
      const empty: SeriesWrite = { series: [], metadata: [] }
      expectSameWrite(yield* decoded(remoteWriteBody(empty)), empty)
    })
  )

  it.effect("a metadata type it does not know is written as unknown", () =>
    Effect.gen(function* () {
      const odd: SeriesWrite = {
        series: [],
        metadata: [{ metric: "odd", type: "0", help: "", unit: "" }]
      }
      const back = yield* decoded(remoteWriteBody(odd))
      expect(back.metadata).toEqual([{ metric: "odd", type: "unknown", help: "", unit: "" }])
    })
  )

  it("is a WriteRequest to the generated decoder: labels sorted, timestamps, types", () => {
    const request = fromBinary(WriteRequestSchema, Snappy.uncompress(remoteWriteBody(write)))
    expect(request.timeseries.length).toBe(written.length)
    request.timeseries.forEach((one, index) => {
      const want = written[index]!
      const names = Object.keys(want.labels).sort()
      expect(one.labels.map((label) => [label.name, label.value])).toEqual(
        names.map((name) => [name, want.labels[name]])
      )
      expect(one.samples.map((sample) => sample.timestamp)).toEqual(
        Array.from(want.timestamps, (time) => BigInt(time))
      )
    })
    const temperature = request.timeseries[1]!.samples.map((sample) => sample.value)
    expect(temperature[0]).toBe(Infinity)
    expect(Object.is(temperature[1], -0)).toBe(true)
    expect(temperature[2]).toBe(-273.15)
    expect(request.timeseries[0]!.samples[1]!.value).toBe(1.5)
    expect(request.metadata.map((m) => [m.metricFamilyName, m.type, m.help, m.unit])).toEqual([
      ["up", MetricMetadata_MetricType.GAUGE, "Whether the target is up.", ""],
      ["http_requests_total", MetricMetadata_MetricType.COUNTER, "Requests — all of them.", ""],
      ["request_duration_seconds", MetricMetadata_MetricType.HISTOGRAM, "", "seconds"],
      ["rpc_latency", MetricMetadata_MetricType.SUMMARY, "RPC latency", "seconds"],
      ["build", MetricMetadata_MetricType.INFO, "", ""],
      ["feature", MetricMetadata_MetricType.STATESET, "", ""],
      ["queue_fill", MetricMetadata_MetricType.GAUGEHISTOGRAM, "", ""],
      ["mystery", MetricMetadata_MetricType.UNKNOWN, "Nobody knows.", ""]
    ])
  })
})
