/**
 * `cloud-audit`: audit-trail events, one row each, kept exactly as sent (their text is
 * sliced, not re-serialised). `eventTime` is an ISO string the engine types as a
 * date-time, and `eventID` stays for deduplication in queries.
 */
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import { EventRows } from "../../domain/EventTransforms.js"
import { arrayElements, isPlainObject, memberText, oneLine, tryParse } from "./JsonText.js"
import { payloadText } from "./PayloadText.js"

const HINT =
  "Send an audit-trail file {Records:[…]}, an array of events, or a single event (plain or gzip)."

const notObject = (index: number) =>
  new BadRequest({ message: `Audit event ${index} is not a JSON object.`, hint: HINT })

/** Rows of the events array whose text is `text` (starting at its `[`), parsed `events`. */
const eachEvent = (text: string, events: ReadonlyArray<unknown>) =>
  Effect.gen(function* () {
    const bad = events.findIndex((event) => !isPlainObject(event))
    if (bad >= 0) return yield* notObject(bad)
    return arrayElements(text, 0).map(oneLine)
  })

/** An event-bus envelope around one audit event: the event is its `detail`. */
const isBusEnvelope = (value: Record<string, unknown>) =>
  typeof value["detail-type"] === "string" &&
  isPlainObject(value.detail) &&
  "eventID" in value.detail

export const cloudAudit = Effect.fn("EventTransforms.cloudAudit")(function* (
  payload: Uint8Array,
  maxBytes: number
) {
  const text = (yield* payloadText(payload, maxBytes, HINT)).trim()
  const parsed = tryParse(text)
  if (!parsed.ok) {
    return yield* new BadRequest({
      message: `The payload is not JSON: ${parsed.reason}.`,
      hint: HINT
    })
  }
  const value = parsed.value
  if (Array.isArray(value)) return new EventRows({ rows: yield* eachEvent(text, value) })
  if (!isPlainObject(value)) {
    return yield* new BadRequest({ message: "The payload is not a JSON object.", hint: HINT })
  }
  if (Array.isArray(value.Records)) {
    const records = memberText(text, 0, "Records") ?? "[]"
    return new EventRows({ rows: yield* eachEvent(records, value.Records) })
  }
  if (isBusEnvelope(value)) {
    return new EventRows({ rows: [oneLine(memberText(text, 0, "detail") ?? "{}")] })
  }
  return new EventRows({ rows: [oneLine(text)] })
})
