/**
 * Remote-write 1.0 bodies for tests, encoded by hand from the protocol definition
 * (WriteRequest{1: TimeSeries{1: Label{1,2}, 2: Sample{1: double, 2: int64}}}) so that a
 * value's exact bits (the stale marker 0x7ff0000000000002) go on the wire as written, then
 * snappy-compressed as the protocol asks.
 */
import * as Snappy from "snappyjs"

export const STALE_MARKER = 0x7ff0000000000002n

export interface TestSeries {
  readonly labels: Readonly<Record<string, string>>
  /** `[ms, value]`; a bigint value is written as raw IEEE-754 bits. */
  readonly samples: ReadonlyArray<readonly [number, number | bigint]>
  /** Exemplars, `[ms, value]`, each with a `trace_id` label (TimeSeries field 3). */
  readonly exemplars?: ReadonlyArray<readonly [number, number]>
  /** Native-histogram samples at these ms: a count and a sum each (TimeSeries field 4). */
  readonly histograms?: ReadonlyArray<number>
}

const UTF8 = new TextEncoder()

/**
 * Protobuf fields written into one growing buffer. A body of the compliance data holds
 * ~10k samples: a writer and a few arrays a sample made encoding them take seconds.
 */
class Writer {
  private buffer = new Uint8Array(1024)
  private view = new DataView(this.buffer.buffer)
  private length = 0
  private room(bytes: number) {
    if (this.length + bytes <= this.buffer.length) return
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + bytes))
    grown.set(this.buffer.subarray(0, this.length))
    this.buffer = grown
    this.view = new DataView(grown.buffer)
  }
  /** Empty again, keeping its buffer (for a message written inside another). */
  reset(): this {
    this.length = 0
    return this
  }
  push(bytes: Uint8Array) {
    this.room(bytes.length)
    this.buffer.set(bytes, this.length)
    this.length += bytes.length
  }
  varint(value: bigint | number) {
    this.room(10)
    if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) {
      while (value >= 0x80) {
        this.buffer[this.length++] = (value % 0x80) | 0x80
        value = Math.floor(value / 0x80)
      }
      this.buffer[this.length++] = value
      return
    }
    // Negative numbers as their 64-bit two's complement, as protobuf writes an int64.
    let v = BigInt.asUintN(64, BigInt(value))
    while (v >= 0x80n) {
      this.buffer[this.length++] = Number(v & 0x7fn) | 0x80
      v >>= 7n
    }
    this.buffer[this.length++] = Number(v)
  }
  tag(field: number, wire: number) {
    this.varint((field << 3) | wire)
  }
  bytes(field: number, bytes: Uint8Array) {
    this.tag(field, 2)
    this.varint(bytes.length)
    this.push(bytes)
  }
  string(field: number, text: string) {
    this.bytes(field, UTF8.encode(text))
  }
  /** A double, or a bigint's raw IEEE-754 bits (the stale marker). */
  fixed64(field: number, value: number | bigint) {
    this.tag(field, 1)
    this.room(8)
    if (typeof value === "bigint") this.view.setBigUint64(this.length, value, true)
    else this.view.setFloat64(this.length, value, true)
    this.length += 8
  }
  /** The bytes written, valid until the writer is written to or reset again. */
  written(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
  finish(): Uint8Array {
    return this.buffer.slice(0, this.length)
  }
}

/** MetricMetadata: `type` is the protocol's enum number (1 counter, 2 gauge, …). */
export interface TestMetadata {
  readonly type: number
  readonly metric: string
  readonly help: string
  readonly unit: string
}

/** A series' label fields, encoded once per label set (the slices of a series share it). */
const encodedLabels = new WeakMap<object, Uint8Array>()
const labelFields = (labels: TestSeries["labels"], scratch: Writer): Uint8Array => {
  let fields = encodedLabels.get(labels)
  if (fields === undefined) {
    const all = new Writer()
    for (const name of Object.keys(labels).sort()) {
      scratch.reset().string(1, name)
      scratch.string(2, labels[name]!)
      all.bytes(1, scratch.written())
    }
    encodedLabels.set(labels, (fields = all.finish()))
  }
  return fields
}

/** The protobuf `WriteRequest`, uncompressed. */
export const writeRequestBytes = (
  series: ReadonlyArray<TestSeries>,
  metadata: ReadonlyArray<TestMetadata> = []
): Uint8Array => {
  const request = new Writer()
  const ts = new Writer()
  const inner = new Writer()
  for (const one of series) {
    ts.reset().push(labelFields(one.labels, inner))
    for (const [ms, value] of one.samples) {
      inner.reset().fixed64(1, value)
      inner.tag(2, 0)
      inner.varint(ms)
      ts.bytes(2, inner.written())
    }
    for (const [ms, value] of one.exemplars ?? []) {
      const exemplar = new Writer()
      const label = new Writer()
      label.string(1, "trace_id")
      label.string(2, "4bf92f3577b34da6a3ce929d0e0e4736")
      exemplar.bytes(1, label.finish())
      exemplar.fixed64(2, value)
      exemplar.tag(3, 0)
      exemplar.varint(ms)
      ts.bytes(3, exemplar.finish())
    }
    for (const ms of one.histograms ?? []) {
      // Histogram{count_int = 1: 3, sum = 3: 1.5, schema = 4: 0, timestamp = 15}.
      const histogram = new Writer()
      histogram.tag(1, 0)
      histogram.varint(3)
      histogram.fixed64(3, 1.5)
      histogram.tag(4, 0)
      histogram.varint(0)
      histogram.tag(15, 0)
      histogram.varint(ms)
      ts.bytes(4, histogram.finish())
    }
    request.bytes(1, ts.written())
  }
  for (const m of metadata) {
    const entry = new Writer()
    entry.tag(1, 0)
    entry.varint(m.type)
    entry.string(2, m.metric)
    entry.string(4, m.help)
    entry.string(5, m.unit)
    request.bytes(3, entry.finish())
  }
  return request.finish()
}

/** A remote-write body: the request, snappy-compressed (block format). */
export const remoteWriteBody = (
  series: ReadonlyArray<TestSeries>,
  metadata: ReadonlyArray<TestMetadata> = []
): Uint8Array => Snappy.compress(writeRequestBytes(series, metadata))

export const REMOTE_WRITE_HEADERS = {
  "content-type": "application/x-protobuf",
  "content-encoding": "snappy",
  "x-prometheus-remote-write-version": "0.1.0"
}

/**
 * A samples insert body (`RowBinary`: id UInt64, time Int64, bits UInt64, little-endian)
 * read back as `id \t time \t bits` lines, by Node's own 64-bit readers.
 */
export const samplesRows = (pieces: ReadonlyArray<Uint8Array>): Array<string> => {
  const bytes = Buffer.concat(pieces)
  if (bytes.length % 24 !== 0) throw new Error(`${bytes.length} bytes are not whole rows`)
  return Array.from({ length: bytes.length / 24 }, (_, row) => {
    const at = row * 24
    return `${bytes.readBigUInt64LE(at)}\t${bytes.readBigInt64LE(at + 8)}\t${bytes.readBigUInt64LE(at + 16)}`
  })
}
