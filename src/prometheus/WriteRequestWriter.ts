/**
 * Series and their samples as a remote-write 1.0 body (protobuf `WriteRequest`, snappy
 * block format), what `decodeRemoteWrite` reads. The metrics write-ahead log stores
 * every accepted write as a remote-write body, so writes that arrive in another form
 * (OTLP metrics) are logged in the same format and replayed by the same decoder. Values
 * are written as the 8 bytes of their bits, never through a JavaScript number, so NaN
 * payloads (stale markers) survive. Sizes are counted first, then one buffer is filled.
 */
import * as Snappy from "snappyjs"
import { MetricMetadata_MetricType } from "./gen/prometheus/remote_pb.js"
import * as Key from "./RemoteProto.js"
import type { DecodedMetadata } from "./RemoteWriteDecode.js"
import type { Labels } from "./SeriesLabels.js"

export interface SeriesSamples {
  readonly labels: Labels
  /** Milliseconds since the epoch. */
  readonly timestamps: Float64Array
  /** Each value's IEEE-754 bits. */
  readonly bits: BigUint64Array
}

export interface SeriesWrite {
  readonly series: ReadonlyArray<SeriesSamples>
  readonly metadata: ReadonlyArray<DecodedMetadata>
}

/** `DecodedMetadata.type` (the enum name, lowercased) to its number; others are UNKNOWN. */
const metricTypes = new Map(
  Object.entries(MetricMetadata_MetricType).flatMap(([name, value]) =>
    typeof value === "number" ? [[name.toLowerCase(), value] as const] : []
  )
)

const varintSize = (value: number) => {
  let size = 1
  for (; value >= 128; size++) value = Math.floor(value / 128)
  return size
}
// A negative int64 is its 64-bit two's complement: always 10 bytes.
const int64Size = (value: number) => (value < 0 ? 10 : varintSize(value))
/** A length-delimited field with a one-byte key. */
const fieldSize = (length: number) => 1 + varintSize(length) + length
/** A string field, left out when empty as proto3 does. */
const textSize = (length: number) => (length === 0 ? 0 : fieldSize(length))
const utf8Length = (text: string) => Buffer.byteLength(text, "utf8")
const SAMPLE_FIXED = 1 + 8 + 1

class Out {
  pos = 0
  constructor(readonly bytes: Buffer) {}
  byte(value: number) {
    this.bytes[this.pos++] = value
  }
  varint(value: number) {
    for (; value >= 128; value = Math.floor(value / 128)) this.byte((value % 128) | 0x80)
    this.byte(value)
  }
  int64(value: number) {
    if (value >= 0) return this.varint(value)
    let rest = BigInt.asUintN(64, BigInt(value))
    for (let i = 0; i < 9; i++, rest >>= 7n) this.byte(Number(rest & 0x7fn) | 0x80)
    this.byte(Number(rest))
  }
  text(key: number, text: string, length: number) {
    if (length === 0) return
    this.byte(key)
    this.varint(length)
    this.pos += this.bytes.write(text, this.pos, length, "utf8")
  }
}

export const remoteWriteBody = (write: SeriesWrite): Uint8Array => {
  // The first pass keeps what the second needs: each series' sorted label names and
  // message size, and every string's UTF-8 length in the order it is written.
  const names: Array<Array<string>> = []
  const sizes: Array<number> = []
  const lengths: Array<number> = []
  let total = 0
  for (const series of write.series) {
    const sorted = Object.keys(series.labels).sort()
    let size = 0
    for (const name of sorted) {
      const nameLength = utf8Length(name)
      const valueLength = utf8Length(series.labels[name]!)
      lengths.push(nameLength, valueLength)
      size += fieldSize(textSize(nameLength) + textSize(valueLength))
    }
    for (const time of series.timestamps)
      size += fieldSize(SAMPLE_FIXED + int64Size(Math.trunc(time)))
    names.push(sorted)
    sizes.push(size)
    total += fieldSize(size)
  }
  for (const m of write.metadata) {
    const type = metricTypes.get(m.type) ?? 0
    const family = utf8Length(m.metric)
    const help = utf8Length(m.help)
    const unit = utf8Length(m.unit)
    lengths.push(family, help, unit)
    const size =
      (type === 0 ? 0 : 1 + varintSize(type)) + textSize(family) + textSize(help) + textSize(unit)
    sizes.push(size)
    total += fieldSize(size)
  }

  const out = new Out(Buffer.alloc(total))
  let next = 0
  let sized = 0
  write.series.forEach((series, index) => {
    out.byte(Key.WRITE_TIMESERIES)
    out.varint(sizes[sized++]!)
    for (const name of names[index]!) {
      const nameLength = lengths[next++]!
      const valueLength = lengths[next++]!
      out.byte(Key.SERIES_LABEL)
      out.varint(textSize(nameLength) + textSize(valueLength))
      out.text(Key.LABEL_NAME, name, nameLength)
      out.text(Key.LABEL_VALUE, series.labels[name]!, valueLength)
    }
    const { bits, timestamps } = series
    const words = new Uint32Array(bits.buffer, bits.byteOffset, bits.length * 2)
    for (let i = 0; i < timestamps.length; i++) {
      const time = Math.trunc(timestamps[i]!)
      out.byte(Key.SERIES_SAMPLE)
      out.varint(SAMPLE_FIXED + int64Size(time))
      out.byte(Key.SAMPLE_VALUE)
      out.bytes.writeUInt32LE(words[i * 2]!, out.pos)
      out.bytes.writeUInt32LE(words[i * 2 + 1]!, out.pos + 4)
      out.pos += 8
      out.byte(Key.SAMPLE_TIMESTAMP)
      out.int64(time)
    }
  })
  for (const m of write.metadata) {
    const type = metricTypes.get(m.type) ?? 0
    out.byte(Key.WRITE_METADATA)
    out.varint(sizes[sized++]!)
    if (type !== 0) {
      out.byte(Key.METADATA_TYPE)
      out.varint(type)
    }
    out.text(Key.METADATA_FAMILY, m.metric, lengths[next++]!)
    out.text(Key.METADATA_HELP, m.help, lengths[next++]!)
    out.text(Key.METADATA_UNIT, m.unit, lengths[next++]!)
  }
  return Snappy.compress(out.bytes)
}
