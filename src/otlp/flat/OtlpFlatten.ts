/**
 * The `?transform=otlp-*` flattening: a decoded export request to rows
 * of a schemaless table with the field names of the OTLP/JSON encoding, each with its
 * scope (`scope.name`, `scope.version`) and its resource's attributes as top-level dotted
 * fields (`service.name`). Not the OTLP app's layout: its endpoints write the collector
 * exporter's typed tables (`src/otlp/transforms/`); both start from `OtlpDecode.ts`.
 */
import type { OtlpExport } from "../../../domain/OtlpModel.js"
import type { Flattened } from "../../../domain/OtlpTransforms.js"
import { logRows } from "./FlatLogs.js"
import { pointRows } from "./FlatMetrics.js"
import { spanRows } from "./FlatTraces.js"

/** JSON object texts, one per span, log record or data point, and the records refused. */
export const flattenExport = (request: OtlpExport): Flattened<ReadonlyArray<string>> => {
  switch (request.signal) {
    case "traces":
      return spanRows(request.request)
    case "logs":
      return logRows(request.request)
    case "metrics":
      return pointRows(request.request)
  }
}
