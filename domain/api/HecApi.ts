import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { DataScopeParams } from "./Scope.js"

/** The collector's reply, e.g. `{"text":"Success","code":0}`. */
export class HecResponse extends Schema.Class<HecResponse>("HecResponse")({
  text: Schema.String,
  code: Schema.Int,
  /** Only when the channel uses indexer acknowledgement. */
  ackId: Schema.optional(Schema.Int)
}) {}

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
  index: Schema.optional(Schema.String)
})

const auth = "Authenticate with `Authorization: Splunk <rt_ key>` (Bearer and Basic also work)."

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
 * The HTTP Event Collector protocol (decisions.md §12), landing events in `spl_events`;
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
  // Not served yet: every endpoint answers 501 (src/http/PendingGroups.ts).
  .addError(ErrorWire.NotImplemented)
  .annotate(OpenApi.Description, "HTTP Event Collector ingest (spl-app)") {}
