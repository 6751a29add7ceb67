import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DataScopeParams } from "./Scope.js"

/** The collector's reply, e.g. `{"text":"Success","code":0}`. */
export class HecResponse extends Schema.Class<HecResponse>("HecResponse")({
  text: Schema.String,
  code: Schema.Int,
  /** Only when the channel uses indexer acknowledgement. */
  ackId: Schema.optional(Schema.Int)
}) {}

/**
 * A refusal in the protocol's words (the HTTP Event Collector's codes): `invalid-event-number` (0-based)
 * names the event at fault. The app not installed is 404 with `code` 404, outside the
 * protocol's 0–27 so no client takes it for one of Splunk's conditions, and a `hint`
 * saying how to install it.
 */
export class HecRefusal extends Schema.Class<HecRefusal>("HecRefusal")({
  text: Schema.String,
  code: Schema.Int,
  "invalid-event-number": Schema.optional(Schema.Int),
  hint: Schema.optional(Schema.String)
}) {}

// `?token=` is not a parameter: a valid one is refused with code 16.
const EventParams = Schema.Struct({
  ...DataScopeParams.fields,
  channel: Schema.optional(Schema.String)
})

/** Raw events carry their metadata in the query string. */
const RawParams = Schema.Struct({
  ...EventParams.fields,
  host: Schema.optional(Schema.String),
  source: Schema.optional(Schema.String),
  sourcetype: Schema.optional(Schema.String),
  index: Schema.optional(Schema.String),
  /** Epoch seconds (or milliseconds past the year 2400) for every line. */
  time: Schema.optional(Schema.String)
})

const auth =
  "Authenticate with `Authorization: Splunk <rt_ key>` (Bearer, and Basic with the key as password, also work). Any content type; `content-encoding: gzip` is read."

const event = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path)
    .setUrlParams(EventParams)
    .addSuccess(HecResponse)
    .annotate(
      OpenApi.Description,
      `Concatenated JSON event objects ({time, host, source, sourcetype, index, event, fields}). ${auth}`
    )

const raw = <const Name extends string>(name: Name, path: `/${string}`) =>
  HttpApiEndpoint.post(name, path)
    .setUrlParams(RawParams)
    .addSuccess(HecResponse)
    .annotate(OpenApi.Description, `Plain text, one event per line. ${auth}`)

/**
 * The HTTP Event Collector protocol, landing events in `spl_events`;
 * the spl-app must be installed. Not behind `Authentication`: the protocol has its own
 * `Splunk` authorization scheme, and replies and error codes as the protocol defines.
 */
export class HecApi extends HttpApiGroup.make("hec")
  .add(event("event", "/services/collector/event"))
  .add(event("collector", "/services/collector"))
  .add(event("event10", "/services/collector/event/1.0"))
  .add(raw("raw", "/services/collector/raw"))
  .add(raw("raw10", "/services/collector/raw/1.0"))
  .add(HttpApiEndpoint.get("health", "/services/collector/health").addSuccess(HecResponse))
  .add(HttpApiEndpoint.get("health10", "/services/collector/health/1.0").addSuccess(HecResponse))
  .add(
    HttpApiEndpoint.post("ack", "/services/collector/ack")
      .setUrlParams(EventParams)
      .addSuccess(HecResponse)
      .annotate(OpenApi.Description, "Indexer acknowledgement is off: always 400 code 14.")
  )
  .addError(HecRefusal, { status: 400 })
  .addError(HecRefusal, { status: 401 })
  .addError(HecRefusal, { status: 403 })
  .addError(HecRefusal, { status: 404 })
  .addError(HecRefusal, { status: 413 })
  .addError(HecRefusal, { status: 500 })
  .addError(HecRefusal, { status: 503 })
  .annotate(OpenApi.Description, "HTTP Event Collector ingest (spl-app)") {}
