/**
 * The remote-write `WriteRequest` read straight off its bytes (remote.proto:
 * WriteRequest{1: TimeSeries{1: Label{1 name, 2 value}, 2: Sample{1 double, 2 int64}},
 * 3: MetricMetadata}). The generated reflective decoder spent much of its time per
 * series and per sample in objects and bigints; this walk notes where each series lies
 * and hands its samples to a sink as they are read, each value as the two 32-bit words
 * of the 8 bytes the sender wrote (so NaN payloads, stale markers included, are never a
 * JavaScript number). Nothing is kept per sample: keeping them in typed arrays until the
 * insert body was written cost a second pass and most of the old generation's garbage.
 * Metadata, a few entries, still goes through the generated decoder. Exemplars and
 * native histograms are counted and skipped: sluice stores float samples.
 */
import { fromBinary } from "@bufbuild/protobuf"
import type { MetricMetadata } from "./gen/prometheus/remote_pb.js"
import { MetricMetadataSchema } from "./gen/prometheus/remote_pb.js"
import * as Key from "./RemoteProto.js"
import { STALE_HIGH, STALE_LOW } from "./SampleBits.js"

export interface ReadSeries {
  /**
   * The label fields' bytes as one latin1 string, when they lie side by side (as every
   * sender writes them): equal bytes are an equal label set, so a writer can remember
   * what it made of them. `undefined` otherwise.
   */
  readonly labelBytes: string | undefined
  /** How many samples the series holds; `readSamples` reads them. */
  readonly samples: number
  /** Where the series' message lies in the request's bytes. */
  readonly start: number
  readonly end: number
}

/** What a request carried that is not stored. */
export interface Unstored {
  readonly exemplars: number
  readonly histograms: number
}

export interface ReadRequest {
  readonly bytes: Buffer
  readonly view: DataView
  readonly series: ReadonlyArray<ReadSeries>
  readonly metadata: ReadonlyArray<MetricMetadata>
  readonly unstored: Unstored
}

/** Takes a series' samples in the order they arrived. */
export interface SampleSink {
  /** `low` and `high`: the value's bits as two 32-bit words. */
  sample(time: number, low: number, high: number): void
}

/** Thrown on bytes that are not a `WriteRequest`; the caller turns it into a 400. */
export class Malformed extends Error {}

const utf8 = new TextDecoder("utf-8", { fatal: true })

class Cursor {
  pos: number
  constructor(
    readonly bytes: Buffer,
    readonly view: DataView,
    start: number,
    readonly end: number
  ) {
    this.pos = start
  }
  more() {
    return this.pos < this.end
  }
  /** A varint up to 2^53 exactly; longer ones (negative int64s) through a bigint. */
  varint(): number {
    // Most varints here (keys, lengths) are one byte.
    const first = this.bytes[this.pos]
    if (first !== undefined && first < 0x80 && this.pos < this.end) {
      this.pos++
      return first
    }
    let result = 0
    let scale = 1
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new Malformed("truncated varint")
      const byte = this.bytes[this.pos++]!
      if (i === 7 && byte >= 0x80) return this.longVarint(result, scale, byte)
      result += (byte & 0x7f) * scale
      if (byte < 0x80) return result
      scale *= 128
    }
    throw new Malformed("varint too long")
  }
  private longVarint(low: number, scale: number, byte: number): number {
    let value = BigInt(low) + BigInt(byte & 0x7f) * BigInt(scale)
    let shift = 56n
    for (let i = 8; i < 10; i++) {
      if (this.pos >= this.end) throw new Malformed("truncated varint")
      const next = this.bytes[this.pos++]!
      value += BigInt(next & 0x7f) << shift
      if (next < 0x80) return Number(BigInt.asIntN(64, value))
      shift += 7n
    }
    throw new Malformed("varint too long")
  }
  /** The end of a length-delimited field starting here. */
  delimited(): number {
    const length = this.varint()
    const end = this.pos + length
    if (end > this.end) throw new Malformed("truncated field")
    return end
  }
  skip(wire: number) {
    if (wire === 0) this.varint()
    else if (wire === 1) this.pos += 8
    else if (wire === 2) this.pos = this.delimited()
    else if (wire === 5) this.pos += 4
    else throw new Malformed(`wire type ${wire}`)
    if (this.pos > this.end) throw new Malformed("truncated field")
  }
  sub(end: number) {
    const cursor = new Cursor(this.bytes, this.view, this.pos, end)
    this.pos = end
    return cursor
  }
}

const QUIET_HIGH = 0x7ff80000

const readLabel = (c: Cursor) => {
  let name = ""
  let value = ""
  while (c.more()) {
    const key = c.varint()
    if (key === Key.LABEL_NAME || key === Key.LABEL_VALUE) {
      const end = c.delimited()
      const text = utf8.decode(c.bytes.subarray(c.pos, end))
      c.pos = end
      if (key === Key.LABEL_NAME) name = text
      else value = text
    } else c.skip(key & 7)
  }
  return { name, value }
}

/**
 * The Sample ending at `end` into `sink`; a quieted stale marker gets its exact bits
 * back. Read in place (no cursor per sample: ~10k a body).
 */
const readSample = (c: Cursor, end: number, sink: SampleSink) => {
  let time = 0
  let low = 0
  let high = 0
  while (c.pos < end) {
    const key = c.varint()
    if (key === Key.SAMPLE_VALUE) {
      if (c.pos + 8 > end) throw new Malformed("truncated double")
      low = c.view.getUint32(c.pos, true)
      high = c.view.getUint32(c.pos + 4, true)
      c.pos += 8
    } else if (key === Key.SAMPLE_TIMESTAMP) time = c.varint()
    else c.skip(key & 7)
  }
  if (c.pos !== end) throw new Malformed("truncated sample")
  sink.sample(time, low, high === QUIET_HIGH && low === STALE_LOW ? STALE_HIGH : high)
}

const readSeries = (c: Cursor, unstored: { exemplars: number; histograms: number }): ReadSeries => {
  let labelsStart = -1
  let labelsEnd = -1
  let adjacent = true
  let samples = 0
  const start = c.pos
  while (c.more()) {
    const fieldStart = c.pos
    const key = c.varint()
    if (key === Key.SERIES_SAMPLE) {
      samples++
      c.pos = c.delimited()
    } else if (key === Key.SERIES_EXEMPLAR || key === Key.SERIES_HISTOGRAM) {
      if (key === Key.SERIES_EXEMPLAR) unstored.exemplars++
      else unstored.histograms++
      c.pos = c.delimited()
    } else if (key === Key.SERIES_LABEL) {
      const end = c.delimited()
      if (labelsStart === -1) labelsStart = fieldStart
      else if (labelsEnd !== fieldStart) adjacent = false
      labelsEnd = end
      c.pos = end
    } else c.skip(key & 7)
  }
  const labelBytes =
    labelsStart !== -1 && adjacent ? c.bytes.toString("latin1", labelsStart, labelsEnd) : undefined
  return { labelBytes, samples, start, end: c.end }
}

export const readWriteRequest = (raw: Uint8Array): ReadRequest => {
  // A Buffer over the same bytes, for its latin1 slices (no view object per series).
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const c = new Cursor(bytes, view, 0, bytes.length)
  const series: Array<ReadSeries> = []
  const metadata: Array<MetricMetadata> = []
  const unstored = { exemplars: 0, histograms: 0 }
  while (c.more()) {
    const key = c.varint()
    if (key === Key.WRITE_TIMESERIES) series.push(readSeries(c.sub(c.delimited()), unstored))
    else if (key === Key.WRITE_METADATA) {
      const end = c.delimited()
      metadata.push(fromBinary(MetricMetadataSchema, bytes.subarray(c.pos, end)))
      c.pos = end
    } else c.skip(key & 7)
  }
  return { bytes, view, series, metadata, unstored }
}

/**
 * The labels of `series` (one of `request`'s), decoded only when asked: a writer that
 * knows its label bytes never needs them. Throws `Malformed`.
 */
export const readLabels = (request: ReadRequest, series: ReadSeries) => {
  const c = new Cursor(request.bytes, request.view, series.start, series.end)
  const labels: Array<{ readonly name: string; readonly value: string }> = []
  while (c.more()) {
    const key = c.varint()
    if (key === Key.SERIES_LABEL) labels.push(readLabel(c.sub(c.delimited())))
    else c.skip(key & 7)
  }
  return labels
}

// A sample as every sender writes it: its key, a one-byte length, the value (key and 8
// bytes), then the timestamp (key and a varint of at most 7 bytes, up to 2^49 ms).
const USUAL_SAMPLE_MIN = 11
const USUAL_SAMPLE_MAX = 17

/**
 * The sample at `at` (its field's key) if it is laid out as usual, written to `sink`;
 * answers where it ends, or -1 to leave it to the general reader. The same sample read
 * either way gives the same row: the layout is only checked, never assumed.
 */
const readUsualSample = (
  bytes: Buffer,
  view: DataView,
  at: number,
  end: number,
  sink: SampleSink
): number => {
  const length = bytes[at + 1]!
  const sampleEnd = at + 2 + length
  if (
    length < USUAL_SAMPLE_MIN ||
    length > USUAL_SAMPLE_MAX ||
    sampleEnd > end ||
    bytes[at + 2] !== Key.SAMPLE_VALUE ||
    bytes[at + 11] !== Key.SAMPLE_TIMESTAMP
  )
    return -1
  let time = 0
  let scale = 1
  let pos = at + 12
  for (;;) {
    const byte = bytes[pos++]!
    time += (byte & 0x7f) * scale
    if (byte < 0x80) break
    // A varint running to the sample's end or past 7 bytes goes the general way.
    if (pos >= sampleEnd) return -1
    scale *= 128
  }
  if (pos !== sampleEnd) return -1
  const low = view.getUint32(at + 3, true)
  const high = view.getUint32(at + 7, true)
  sink.sample(time, low, high === QUIET_HIGH && low === STALE_LOW ? STALE_HIGH : high)
  return sampleEnd
}

/**
 * The samples of `series` (one of `request`'s) into `sink`. Throws `Malformed`.
 * Samples laid out as usual are read in place, without the cursor's calls, which were
 * most of the decoding's time.
 */
export const readSamples = (request: ReadRequest, series: ReadSeries, sink: SampleSink) => {
  const { bytes, view } = request
  const c = new Cursor(bytes, view, series.start, series.end)
  while (c.more()) {
    if (bytes[c.pos] === Key.SERIES_SAMPLE && c.pos + 1 < c.end) {
      const next = readUsualSample(bytes, view, c.pos, c.end, sink)
      if (next !== -1) {
        c.pos = next
        continue
      }
    }
    const key = c.varint()
    if (key === Key.SERIES_SAMPLE) readSample(c, c.delimited(), sink)
    else c.skip(key & 7)
  }
}
