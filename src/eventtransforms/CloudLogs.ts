/**
 * `cloud-logs`: a log-subscription payload, one row per log event carrying the
 * envelope. Also used for the subscription payloads a delivery stream forwards.
 */
import { Effect, Either, ParseResult, Schema } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import { CONTROL_MESSAGE, EventRows, LogSubscription } from "../../domain/EventTransforms.js"
import { payloadText } from "./PayloadText.js"
import { isPlainObject, oneLine, tryParse } from "./JsonText.js"

const decodeSubscription = Schema.decodeUnknownEither(LogSubscription)

/** The fields of a row that come from the event; an envelope field of that name yields. */
const EVENT_FIELDS = new Set(["id", "timestamp", "message", "message_json"])

/** The test a delivery-stream record's JSON takes to be flattened as a subscription. */
export const isSubscription = (value: Record<string, unknown>) =>
  typeof value.messageType === "string" && Array.isArray(value.logEvents)

const member = (name: string, value: unknown) => `${JSON.stringify(name)}:${JSON.stringify(value)}`

// An ISO string, so the engine types it as a date-time; a value out of range stays as sent.
const isoTime = (ms: number): unknown =>
  Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : ms

/** The message's own text, on one line, when it is a JSON object. */
const messageJson = (message: string) => {
  const text = message.trim()
  if (!text.startsWith("{")) return undefined
  const parsed = tryParse(text)
  return parsed.ok && isPlainObject(parsed.value) ? oneLine(text) : undefined
}

/**
 * The rows of one decoded payload, or why it is not a log subscription. `attributes`
 * (a delivery stream's common attributes) are added where a row has no such field.
 */
export const subscriptionRows = (
  value: unknown,
  attributes: ReadonlyArray<readonly [string, string]> = []
): Either.Either<Array<string>, string> => {
  const decoded = decodeSubscription(value)
  if (Either.isLeft(decoded)) {
    return Either.left(ParseResult.TreeFormatter.formatErrorSync(decoded.left))
  }
  const { logEvents, ...envelope } = decoded.right
  if (envelope.messageType === CONTROL_MESSAGE) return Either.right([])
  const shared = Object.entries(envelope).filter(([name]) => !EVENT_FIELDS.has(name))
  const head = shared.map(([name, v]) => member(name, v))
  const rows = logEvents.map(({ id, timestamp, message, ...extra }) => {
    const own = Object.entries(extra).filter(([name]) => !EVENT_FIELDS.has(name))
    const members = [
      ...head,
      member("id", id),
      member("timestamp", isoTime(timestamp)),
      member("message", message),
      ...own.map(([name, v]) => member(name, v))
    ]
    const json = messageJson(message)
    if (json !== undefined) members.push(`"message_json":${json}`)
    for (const [name, v] of attributes) {
      if (
        !EVENT_FIELDS.has(name) &&
        !Object.hasOwn(envelope, name) &&
        !Object.hasOwn(extra, name)
      ) {
        members.push(member(name, v))
      }
    }
    return `{${members.join(",")}}`
  })
  return Either.right(rows)
}

const HINT =
  "Send a log-subscription payload {messageType, owner, logGroup, logStream, subscriptionFilters, logEvents:[{id, timestamp, message}]}, plain or gzip."

export const cloudLogs = Effect.fn("EventTransforms.cloudLogs")(function* (
  payload: Uint8Array,
  maxBytes: number
) {
  const text = yield* payloadText(payload, maxBytes, HINT)
  const parsed = tryParse(text)
  if (!parsed.ok) {
    return yield* new BadRequest({
      message: `The payload is not JSON: ${parsed.reason}.`,
      hint: HINT
    })
  }
  const rows = subscriptionRows(parsed.value)
  if (Either.isLeft(rows)) {
    return yield* new BadRequest({
      message: `The payload is not a log subscription: ${rows.left}`,
      hint: HINT
    })
  }
  return new EventRows({ rows: rows.right })
})
