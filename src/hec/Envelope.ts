/**
 * One JSON envelope `{time, host, source, sourcetype, index, event, fields}` checked and
 * turned into a stored event, with the protocol's code for each fault:
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
const isFlat = (fields: Json) => {
  for (const key in fields) {
    const value = fields[key]
    if (!isScalar(value) && !(Array.isArray(value) && value.every(isScalar))) return false
  }
  return true
}

/**
 * These keys name `spl_events`' typed columns (and the raw storage): as fields they
 * would shadow them, so they are left out of `fields` and stay readable in `_raw`.
 */
const COLUMNS = new Set(["_time", "_raw", "host", "source", "sourcetype", "index"])
const RESERVED = new Set([...COLUMNS, "__raw", "__raw_data"])

const hasReserved = (object: Json) => {
  for (const key in object) if (RESERVED.has(key)) return true
  return false
}

/**
 * The event's own keys and then the envelope's `fields` (which win), reserved keys left
 * out. Most events are an object with nothing to leave out and no `fields`: that object
 * is the fields as it is (a copy per event was a good part of reading them). A copy has
 * no prototype, so a key `__proto__` stays a field.
 */
const fieldsOf = (event: unknown, fields: Json | null): Json => {
  const own = isObject(event) ? event : undefined
  const extra = fields !== null && Object.keys(fields).length > 0 ? fields : undefined
  if (extra === undefined && own !== undefined && !hasReserved(own)) return own
  const kept: Record<string, unknown> = Object.create(null)
  for (const from of [own, extra]) {
    if (from === undefined) continue
    for (const key in from) if (!RESERVED.has(key)) kept[key] = from[key]
  }
  return kept
}

// Plain code, not `Either.gen`, and refusals made only when refusing: this runs once per
// event, and building an error captures a stack.
const textOf = (event: unknown): string | undefined => {
  if (typeof event === "string") return event.trim() === "" ? undefined : event
  if (isObject(event) && Object.keys(event).length === 0) return undefined
  if (Array.isArray(event) && event.length === 0) return undefined
  return JSON.stringify(event)
}

const refuse = (code: CollectorRefusal["code"], detail: string, eventNumber: number) =>
  Either.left(new CollectorRefusal({ code, detail, eventNumber }))

export const eventOf = (
  envelope: unknown,
  n: number,
  defaults: EventDefaults
): Either.Either<SplEvent, CollectorRefusal> => {
  if (!isObject(envelope)) return refuse(6, "an event is not a JSON object", n)
  const { event, fields = {} } = envelope
  if (event === undefined || event === null) return refuse(12, "no 'event'", n)
  const raw = textOf(event)
  if (raw === undefined) return refuse(13, "blank event", n)
  if (fields !== null && (!isObject(fields) || !isFlat(fields))) {
    return refuse(15, "'fields' is not flat", n)
  }
  const time = readTime(envelope.time)
  if (time._tag === "notNumeric") return refuse(15, "'time' is not numeric", n)
  if (time._tag === "outOfRange") return refuse(6, "'time' out of range", n)
  const metadata = metadataOf(envelope, defaults, n)
  if (Either.isLeft(metadata)) return Either.left(metadata.left)
  return Either.right({
    time: time._tag === "at" ? time.millis : defaults.receivedAt,
    raw,
    ...metadata.right,
    fields: fieldsOf(event, fields)
  })
}
