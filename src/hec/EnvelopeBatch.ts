/**
 * A body of envelopes: concatenated with nothing, whitespace or newlines between them,
 * or one JSON array. The record scanner of the body insert (`RecordSplitter`) finds
 * where each envelope ends, here one envelope per chunk, so only one scanner knows JSON
 * framing; each envelope is then parsed on its own, so a fault has an event number.
 * A body of ASCII text (what senders send: JSON escapes the rest) is decoded once and
 * its envelopes parsed from slices of that text; any other is decoded envelope by envelope.
 */
import { Either } from "effect"
import type { EventDefaults } from "../../domain/EventCollector.js"
import { CollectorRefusal } from "../../domain/EventCollector.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import type { Chunk } from "../ingest/RecordSplitter.js"
import { RecordSplitter } from "../ingest/RecordSplitter.js"
import { eventOf } from "./Envelope.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

const isBlank = (body: Uint8Array) =>
  body.every((c) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)

const chunksOf = (body: Uint8Array): Either.Either<ReadonlyArray<Chunk>, CollectorRefusal> => {
  // One record per chunk: a chunk is taken as soon as it holds one byte.
  const splitter = new RecordSplitter(1)
  try {
    return Either.right([...splitter.push(body), ...splitter.end()])
  } catch (error) {
    return Either.left(
      new CollectorRefusal({
        code: 6,
        detail: error instanceof Error ? error.message : String(error),
        eventNumber: splitter.totalRecords
      })
    )
  }
}

const envelopeOf = (chunk: Chunk, inArray: boolean): Either.Either<unknown, CollectorRefusal> =>
  Either.try({
    try: () => {
      const parsed: unknown = JSON.parse(utf8.decode(Buffer.concat(chunk.parts)))
      return inArray && Array.isArray(parsed) ? parsed[0] : parsed
    },
    catch: (error) =>
      new CollectorRefusal({
        code: 6,
        detail: error instanceof Error ? error.message : String(error),
        eventNumber: chunk.firstRecord
      })
  })

/** The body as text when every byte of it is ASCII, so byte offsets are text offsets. */
const asciiText = (body: Uint8Array): string | undefined => {
  try {
    const text = utf8.decode(body)
    return text.length === body.length ? text : undefined
  } catch {
    return undefined
  }
}

/** The one envelope of `chunk`, parsed from `text` (its array brackets left out). */
const envelopeInText = (
  text: string,
  body: Uint8Array,
  chunk: Chunk,
  inArray: boolean
): Either.Either<unknown, CollectorRefusal> => {
  const part = inArray ? chunk.parts[1] : chunk.parts[0]
  if (part === undefined || chunk.parts.length !== (inArray ? 3 : 1)) {
    return envelopeOf(chunk, inArray)
  }
  const start = part.byteOffset - body.byteOffset
  try {
    return Either.right(JSON.parse(text.slice(start, start + part.length)))
  } catch (error) {
    return Either.left(
      new CollectorRefusal({
        code: 6,
        detail: error instanceof Error ? error.message : String(error),
        eventNumber: chunk.firstRecord
      })
    )
  }
}

export const eventsOf = (
  body: Uint8Array,
  defaults: EventDefaults
): Either.Either<ReadonlyArray<SplEvent>, CollectorRefusal> => {
  if (isBlank(body)) return Either.left(new CollectorRefusal({ code: 5, detail: "empty body" }))
  const inArray = body[body.findIndex((c) => c > 0x20)] === 0x5b
  const chunks = chunksOf(body)
  if (Either.isLeft(chunks)) return Either.left(chunks.left)
  const text = asciiText(body)
  const events: Array<SplEvent> = []
  for (const chunk of chunks.right) {
    const envelope =
      text === undefined ? envelopeOf(chunk, inArray) : envelopeInText(text, body, chunk, inArray)
    if (Either.isLeft(envelope)) return Either.left(envelope.left)
    const event = eventOf(envelope.right, chunk.firstRecord, defaults)
    if (Either.isLeft(event)) return Either.left(event.left)
    events.push(event.right)
  }
  return Either.right(events)
}
