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

class Writer {
  private chunks: Array<Uint8Array> = []
  private size = 0
  push(bytes: Uint8Array) {
    this.chunks.push(bytes)
    this.size += bytes.length
  }
  varint(value: bigint | number) {
    let v = BigInt.asUintN(64, BigInt(value))
    const out: Array<number> = []
    while (v >= 0x80n) {
      out.push(Number(v & 0x7fn) | 0x80)
      v >>= 7n
    }
    out.push(Number(v))
    this.push(Uint8Array.from(out))
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
    this.bytes(field, new TextEncoder().encode(text))
  }
  fixed64(field: number, bits: bigint) {
    this.tag(field, 1)
    const b = new Uint8Array(8)
    new DataView(b.buffer).setBigUint64(0, bits, true)
    this.push(b)
  }
  finish(): Uint8Array {
    const out = new Uint8Array(this.size)
    let offset = 0
    for (const chunk of this.chunks) {
      out.set(chunk, offset)
      offset += chunk.length
    }
    return out
  }
}

const bitsOf = (value: number | bigint) => {
  if (typeof value === "bigint") return value
  const view = new DataView(new ArrayBuffer(8))
  view.setFloat64(0, value, true)
  return view.getBigUint64(0, true)
}

/** MetricMetadata: `type` is the protocol's enum number (1 counter, 2 gauge, …). */
export interface TestMetadata {
  readonly type: number
  readonly metric: string
  readonly help: string
  readonly unit: string
}

/** The protobuf `WriteRequest`, uncompressed. */
export const writeRequestBytes = (
  series: ReadonlyArray<TestSeries>,
  metadata: ReadonlyArray<TestMetadata> = []
): Uint8Array => {
  const request = new Writer()
  for (const one of series) {
    const ts = new Writer()
    for (const name of Object.keys(one.labels).sort()) {
      const label = new Writer()
      label.string(1, name)
      label.string(2, one.labels[name]!)
      ts.bytes(1, label.finish())
    }
    for (const [ms, value] of one.samples) {
      const sample = new Writer()
      sample.fixed64(1, bitsOf(value))
      sample.tag(2, 0)
      sample.varint(ms)
      ts.bytes(2, sample.finish())
    }
    for (const [ms, value] of one.exemplars ?? []) {
      const exemplar = new Writer()
      const label = new Writer()
      label.string(1, "trace_id")
      label.string(2, "4bf92f3577b34da6a3ce929d0e0e4736")
      exemplar.bytes(1, label.finish())
      exemplar.fixed64(2, bitsOf(value))
      exemplar.tag(3, 0)
      exemplar.varint(ms)
      ts.bytes(3, exemplar.finish())
    }
    for (const ms of one.histograms ?? []) {
      // Histogram{count_int = 1: 3, sum = 3: 1.5, schema = 4: 0, timestamp = 15}.
      const histogram = new Writer()
      histogram.tag(1, 0)
      histogram.varint(3)
      histogram.fixed64(3, bitsOf(1.5))
      histogram.tag(4, 0)
      histogram.varint(0)
      histogram.tag(15, 0)
      histogram.varint(ms)
      ts.bytes(4, histogram.finish())
    }
    request.bytes(1, ts.finish())
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
