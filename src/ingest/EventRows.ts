/**
 * Events as `RowBinary` rows of the events layout (src/tables/EventsLayout.ts), in the
 * order `insertShape` names the columns: `_time` (Int64 ms, the `DateTime64(3)` ticks),
 * `_raw`, `host`, `source`, `sourcetype`, `index` (each a length and its UTF-8 bytes),
 * and the fields' JSON text, which the engine reads into the JSON column
 * (`input_format_binary_read_json_as_string`).
 *
 * Against the `JSONEachRow` lines they replace, they cost less CPU in the engine worker
 * (into tables made as the service makes them, both constraints), the stored rows
 * identical (a hash over every column), and less time to write here. A buffer grown as
 * rows are written, with metadata equal to the previous row's copied rather than
 * encoded, was slower to write than this.
 */
import type { SplEvent } from "../../domain/SplEvent.js"
import { setInt64 } from "../engine/RowBinary.js"
import { CHUNK_BYTES, pieces } from "./BodyInsert.js"
import type { Chunk } from "./RecordSplitter.js"

/** Bytes of an unsigned LEB128 length. */
const varintBytes = (n: number) =>
  n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5

/** One event's strings, in column order after `_time`. */
const stringsOf = (event: SplEvent) => [
  event.raw,
  event.host,
  event.source,
  event.sourcetype,
  event.index,
  JSON.stringify(event.fields)
]

/** The `RowBinary` bytes of rows, each an event's time and its strings. */
const encode = (times: ReadonlyArray<number>, rows: ReadonlyArray<ReadonlyArray<string>>) => {
  // Sized exactly first: a string's UTF-8 length is known before it is written.
  const lengths = rows.map((strings) => strings.map((text) => Buffer.byteLength(text)))
  let size = 0
  for (const row of lengths) {
    size += 8
    for (const length of row) size += varintBytes(length) + length
  }
  const bytes = Buffer.allocUnsafe(size)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = 0
  rows.forEach((strings, r) => {
    setInt64(view, at, times[r]!)
    at += 8
    strings.forEach((text, s) => {
      let length = lengths[r]![s]!
      while (length >= 0x80) {
        bytes[at++] = (length & 0x7f) | 0x80
        length = Math.floor(length / 128)
      }
      bytes[at++] = length
      at += bytes.write(text, at, "utf8")
    })
  })
  return new Uint8Array(bytes.buffer, bytes.byteOffset, at)
}

/** `events` as chunks of about `CHUNK_BYTES` of rows, each encoded when it is taken. */
export function* eventChunks(events: ReadonlyArray<SplEvent>): Generator<Chunk> {
  let first = 0
  while (first < events.length) {
    const times: Array<number> = []
    const rows: Array<ReadonlyArray<string>> = []
    let size = 0
    for (let i = first; i < events.length && (rows.length === 0 || size < CHUNK_BYTES); i++) {
      const strings = stringsOf(events[i]!)
      for (const text of strings) size += text.length
      times.push(events[i]!.time)
      rows.push(strings)
    }
    yield {
      parts: [...pieces(encode(times, rows))],
      firstRecord: first,
      records: rows.length,
      lines: rows.map((_, i) => first + i + 1),
      last: first + rows.length === events.length
    }
    first += rows.length
  }
}
