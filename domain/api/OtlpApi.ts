import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { DataScopeParams } from "./Scope.js"

/** OTLP's partial success: some records were dropped as invalid, the rest stored. */
export class OtlpPartialSuccess extends Schema.Class<OtlpPartialSuccess>("OtlpPartialSuccess")({
  // OTLP/JSON writes int64 counters as strings; accept both spellings.
  rejectedSpans: Schema.optional(Schema.Union(Schema.Number, Schema.String)),
  rejectedLogRecords: Schema.optional(Schema.Union(Schema.Number, Schema.String)),
  rejectedDataPoints: Schema.optional(Schema.Union(Schema.Number, Schema.String)),
  errorMessage: Schema.optional(Schema.String)
}) {}

/** `{}` when everything was stored. */
export class OtlpExportResponse extends Schema.Class<OtlpExportResponse>("OtlpExportResponse")({
  partialSuccess: Schema.optional(OtlpPartialSuccess)
}) {}

const body = [
  "An OTLP export request, `application/json` or `application/x-protobuf`, optionally",
  "`content-encoding: gzip`; at most 100 MiB after decompression (413).",
  "A protobuf request gets a protobuf response; the JSON form is described here."
].join(" ")

// Each signal lands in the table of its name unless its header (set below) names another.
const signal = <const Name extends string>(name: Name) =>
  HttpApiEndpoint.post(name, `/otlp/v1/${name}`)
    .setUrlParams(DataScopeParams)
    .addSuccess(OtlpExportResponse)
    .annotate(
      OpenApi.Description,
      `${body} Rows go to table \`${name}\` unless the header names one.`
    )

const table = Schema.optional(Schema.String)

/** Native OTLP/HTTP ingest; the otlp-app must be installed. Bodies are read raw. */
export class OtlpApi extends HttpApiGroup.make("otlp")
  .add(signal("traces").setHeaders(Schema.Struct({ "x-service-traces-table": table })))
  .add(signal("logs").setHeaders(Schema.Struct({ "x-service-logs-table": table })))
  .add(signal("metrics").setHeaders(Schema.Struct({ "x-service-metrics-table": table })))
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.ClusterPaused)
  .addError(ErrorWire.PayloadTooLarge)
  .addError(ErrorWire.UnsupportedMediaType)
  .addError(ErrorWire.Unavailable)
  .addError(ErrorWire.AppNotInstalled)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.InvalidDatabaseName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "OTLP/HTTP ingest (otlp-app)") {}
