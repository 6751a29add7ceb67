/** The built-in OTLP flattenings, one module per signal. */
import { Layer } from "effect"
import { OtlpTransforms } from "../../../domain/OtlpTransforms.js"
import { flattenLogs } from "./LogsTransform.js"
import { flattenMetrics } from "./MetricsTransform.js"
import { flattenTraces } from "./TracesTransform.js"

export const OtlpTransformsLive = Layer.succeed(
  OtlpTransforms,
  OtlpTransforms.of({ traces: flattenTraces, logs: flattenLogs, metrics: flattenMetrics })
)
