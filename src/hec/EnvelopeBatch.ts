/**
 * A body of envelopes: concatenated with nothing, whitespace or newlines between them,
 * or one JSON array. The record scanner of the body insert (`RecordSplitter`) finds
 * where each envelope ends, here one envelope per chunk, so only one scanner knows JSON
 * framing; each envelope is then parsed on its own, so a fault has an event number.
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

export const eventsOf = (
  body: Uint8Array,
  defaults: EventDefaults
): Either.Either<ReadonlyArray<SplEvent>, CollectorRefusal> =>
  Either.gen(function* () {
    if (isBlank(body)) {
      return yield* Either.left(new CollectorRefusal({ code: 5, detail: "empty body" }))
    }
    const inArray = body[body.findIndex((c) => c > 0x20)] === 0x5b
    const chunks = yield* chunksOf(body)
    const events: Array<SplEvent> = []
    for (const chunk of chunks) {
      const envelope = yield* envelopeOf(chunk, inArray)
      events.push(yield* eventOf(envelope, chunk.firstRecord, defaults))
    }
    return events
  })
