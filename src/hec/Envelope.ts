/**
 * One JSON envelope `{time, host, source, sourcetype, index, event, fields}` checked and
 * turned into a stored event, with the protocol's code for each fault (spl.md §2):
 * not an object 6, no `event` 12, a blank one 13, `fields` not flat or `time` not
 * numeric 15 (as Splunk answers, measured by mockdr), other metadata not text 6.
 */
import { Either } from "effect"
import type { EventDefaults } from "../../domain/EventCollector.js"
import { CollectorRefusal } from "../../domain/EventCollector.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { metadataOf } from "./EventMetadata.js"
import { readTime } from "./EventTime.js"

type Json = Readonly<Record<string, unknown>>

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const isScalar = (value: unknown) => value === null || typeof value !== "object"

/** Indexed fields are flat: scalars, or arrays of scalars (multivalue fields). */
const isFlat = (fields: Json) =>
  Object.values(fields).every(
    (value) => isScalar(value) || (Array.isArray(value) && value.every(isScalar))
  )

/**
 * These keys name `spl_events`' typed columns (and the raw storage): as fields they
 * would shadow them, so they are left out of `fields` and stay readable in `_raw`.
 */
const COLUMNS = new Set(["_time", "_raw", "host", "source", "sourcetype", "index"])
const RESERVED = new Set([...COLUMNS, "__raw", "__raw_data"])

const withoutReserved = (fields: Json): Record<string, unknown> => {
  const kept: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(fields)) if (!RESERVED.has(key)) kept[key] = value
  return kept
}

const textOf = (event: unknown, n: number): Either.Either<string, CollectorRefusal> => {
  const blank = new CollectorRefusal({ code: 13, detail: "blank event", eventNumber: n })
  if (typeof event === "string")
    return event.trim() === "" ? Either.left(blank) : Either.right(event)
  if (isObject(event) && Object.keys(event).length === 0) return Either.left(blank)
  if (Array.isArray(event) && event.length === 0) return Either.left(blank)
  return Either.right(JSON.stringify(event))
}

export const eventOf = (
  envelope: unknown,
  n: number,
  defaults: EventDefaults
): Either.Either<SplEvent, CollectorRefusal> =>
  Either.gen(function* () {
    if (!isObject(envelope)) {
      return yield* Either.left(
        new CollectorRefusal({ code: 6, detail: "an event is not a JSON object", eventNumber: n })
      )
    }
    const { event, fields = {} } = envelope
    if (event === undefined || event === null) {
      return yield* Either.left(
        new CollectorRefusal({ code: 12, detail: "no 'event'", eventNumber: n })
      )
    }
    const raw = yield* textOf(event, n)
    if (fields !== null && (!isObject(fields) || !isFlat(fields))) {
      return yield* Either.left(
        new CollectorRefusal({ code: 15, detail: "'fields' is not flat", eventNumber: n })
      )
    }
    const time = readTime(envelope.time)
    if (time._tag === "notNumeric" || time._tag === "outOfRange") {
      const detail = time._tag === "notNumeric" ? "'time' is not numeric" : "'time' out of range"
      return yield* Either.left(
        new CollectorRefusal({ code: time._tag === "notNumeric" ? 15 : 6, detail, eventNumber: n })
      )
    }
    const metadata = yield* metadataOf(envelope, defaults, n)
    return {
      time: time._tag === "at" ? time.millis : defaults.receivedAt,
      raw,
      ...metadata,
      fields: withoutReserved({ ...(isObject(event) ? event : {}), ...(fields ?? {}) })
    }
  })
