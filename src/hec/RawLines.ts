/**
 * A `/raw` body: one event per non-blank line (line splitting was chosen over
 * Splunk's per-sourcetype rules), its metadata and time from the query string.
 */
import { Either } from "effect"
import type { EventDefaults, RawMetadata } from "../../domain/EventCollector.js"
import { CollectorRefusal } from "../../domain/EventCollector.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { metadataOf } from "./EventMetadata.js"
import { readTime } from "./EventTime.js"

const utf8 = new TextDecoder("utf-8", { fatal: true })

export const rawEventsOf = (
  body: Uint8Array,
  query: RawMetadata,
  defaults: EventDefaults
): Either.Either<ReadonlyArray<SplEvent>, CollectorRefusal> =>
  Either.gen(function* () {
    const text = yield* Either.try({
      try: () => utf8.decode(body),
      catch: () => new CollectorRefusal({ code: 6, detail: "the body is not UTF-8 text" })
    })
    const lines = text.split(/\r?\n/).filter((line) => line.trim() !== "")
    if (lines.length === 0) {
      return yield* Either.left(new CollectorRefusal({ code: 5, detail: "no lines" }))
    }
    const time = readTime(query.time)
    if (time._tag === "notNumeric" || time._tag === "outOfRange") {
      return yield* Either.left(
        new CollectorRefusal({
          code: time._tag === "notNumeric" ? 15 : 6,
          detail: `time=${query.time}`
        })
      )
    }
    const metadata = yield* metadataOf(query, defaults, undefined)
    const at = time._tag === "at" ? time.millis : defaults.receivedAt
    return lines.map((raw) => ({ time: at, raw, ...metadata, fields: {} }))
  })
