/**
 * Event transforms: log subscriptions (`cloud-logs`), audit trails
 * (`cloud-audit`) and delivery-stream batches (`delivery-stream`) flattened into rows of
 * a schemaless table. Pure: bytes or a decoded batch in, rows out, no I/O, so each
 * format is testable on its own and the insert path stays the plain body insert.
 *
 * Rows are JSON object texts, one per row, each on one line. Texts rather than objects:
 * a record that arrives as JSON keeps its exact text (integers beyond 2^53 keep every
 * digit) and nothing is serialised twice on its way to the engine.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { BadRequest, PayloadTooLarge } from "./Errors.js"

/** One log event of a log-subscription payload; other fields (`extractedFields`) stay. */
export const LogEvent = Schema.Struct(
  {
    id: Schema.String,
    /** Milliseconds since the epoch. */
    timestamp: Schema.Number,
    message: Schema.String
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)

/**
 * A log-subscription payload, as a subscription filter delivers it (usually gzip).
 * Envelope fields other than `logEvents` are carried onto every row, known or not.
 */
export const LogSubscription = Schema.Struct(
  {
    messageType: Schema.String,
    owner: Schema.optional(Schema.String),
    logGroup: Schema.optional(Schema.String),
    logStream: Schema.optional(Schema.String),
    subscriptionFilters: Schema.optional(Schema.Array(Schema.String)),
    logEvents: Schema.Array(LogEvent)
  },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
)
export type LogSubscription = typeof LogSubscription.Type

/** `messageType` of the message sent when a subscription is set up: no events, no rows. */
export const CONTROL_MESSAGE = "CONTROL_MESSAGE"

/** Column names for TSV records: an array, or one string separated by commas or tabs. */
export const TsvColumns = Schema.Union(Schema.Array(Schema.String), Schema.String)

/** One record of a delivery-stream batch: base64 bytes. */
export const DeliveryStreamRecord = Schema.Struct({
  data: Schema.String,
  /** Column names for a TSV record (rule 3); not sent by the vendor's streams. */
  columns: Schema.optional(TsvColumns)
})

/** The body a delivery stream POSTs to an HTTP endpoint. */
export class DeliveryStreamBatch extends Schema.Class<DeliveryStreamBatch>("DeliveryStreamBatch")({
  requestId: Schema.String,
  /** Milliseconds since the epoch, when the stream made the request. */
  timestamp: Schema.Number,
  records: Schema.Array(DeliveryStreamRecord),
  /** Column names for every TSV record of the batch (rule 3). */
  columns: Schema.optional(TsvColumns)
}) {}

/**
 * What comes with a batch besides its body: the `commonAttributes` of the
 * `X-Amz-Firehose-Common-Attributes` header (added to every row; a `columns` attribute
 * names TSV columns instead), and the byte budget for gzip records once inflated.
 */
export class DeliveryStreamContext extends Schema.Class<DeliveryStreamContext>(
  "DeliveryStreamContext"
)({
  commonAttributes: Schema.Record({ key: Schema.String, value: Schema.String }),
  maxBytes: Schema.Int,
  /** The insert's `columns` parameter: TSV column names, comma-separated (rule 3). */
  columns: Schema.optional(Schema.String)
}) {}

/** The rows a payload flattens into, in order. */
export class EventRows extends Schema.Class<EventRows>("EventRows")({
  /** JSON object texts, none containing a newline. */
  rows: Schema.Array(Schema.String)
}) {}

/** A payload that cannot become rows: 400 (naming the record), or 413 once inflated. */
export type EventRejected = BadRequest | PayloadTooLarge

/**
 * The three event formats. `cloudLogs` and `cloudAudit` read a whole request body,
 * plain or gzip (detected by its magic bytes), inflating at most `maxBytes`.
 */
export class EventTransforms extends Context.Tag("sluice/EventTransforms")<
  EventTransforms,
  {
    /**
     * One row per log event: the envelope fields, `id`, `timestamp` (ISO-8601, so the
     * engine types it as a date-time), `message`, and `message_json` (the message
     * itself, parsed) when the message is a JSON object. A control message gives none.
     */
    readonly cloudLogs: (
      payload: Uint8Array,
      maxBytes: number
    ) => Effect.Effect<EventRows, EventRejected>
    /**
     * One row per audit event, unchanged: `{Records: […]}`, an array of events, a single
     * event, or an event wrapped by an event bus (`detail`). `eventTime` stays the row
     * time (an ISO string the engine types as a date-time), `eventID` its identity.
     */
    readonly cloudAudit: (
      payload: Uint8Array,
      maxBytes: number
    ) => Effect.Effect<EventRows, EventRejected>
    /** The spec's five decoding rules per record; a failing record fails the batch. */
    readonly deliveryStream: (
      batch: DeliveryStreamBatch,
      context: DeliveryStreamContext
    ) => Effect.Effect<EventRows, EventRejected>
  }
>() {}
