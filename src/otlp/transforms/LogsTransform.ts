/** The OTLP app's logs: one `otel_logs` row per log record (`?transform=` is `flat/`). */
import type { OtlpLogRecord, OtlpLogsRequest } from "../../../domain/OtlpModel.js"
import type { Flattened, LogRow } from "../../../domain/OtlpTransforms.js"
import { attributeMap, serviceNameOf, valueText } from "./AttributeText.js"
import { hex, idProblem, Rejections, SPAN_ID_BYTES, TRACE_ID_BYTES } from "./Ids.js"

type Context = Omit<
  LogRow,
  | "Timestamp"
  | "TraceId"
  | "SpanId"
  | "TraceFlags"
  | "SeverityText"
  | "SeverityNumber"
  | "Body"
  | "LogAttributes"
  | "EventName"
>

export const recordProblem = (record: OtlpLogRecord): string | undefined =>
  idProblem("trace_id", record.traceId, TRACE_ID_BYTES, true) ??
  idProblem("span_id", record.spanId, SPAN_ID_BYTES, true)

const logRow = (record: OtlpLogRecord, context: Context): LogRow => ({
  Timestamp: record.timeUnixNano === 0n ? record.observedTimeUnixNano : record.timeUnixNano,
  TraceId: hex(record.traceId),
  SpanId: hex(record.spanId),
  TraceFlags: record.flags & 0xff,
  SeverityText: record.severityText,
  SeverityNumber: record.severityNumber & 0xff,
  Body: valueText(record.body),
  LogAttributes: attributeMap(record.attributes),
  EventName: record.eventName,
  ...context
})

export const flattenLogs = (request: OtlpLogsRequest): Flattened<ReadonlyArray<LogRow>> => {
  const rows: Array<LogRow> = []
  const rejections = new Rejections()
  for (const resourceLogs of request.resourceLogs) {
    const attributes = resourceLogs.resource?.attributes
    const ResourceAttributes = attributeMap(attributes)
    const ServiceName = serviceNameOf(attributes)
    for (const scopeLogs of resourceLogs.scopeLogs) {
      const context: Context = {
        ServiceName,
        ResourceSchemaUrl: resourceLogs.schemaUrl,
        ResourceAttributes,
        ScopeSchemaUrl: scopeLogs.schemaUrl,
        ScopeName: scopeLogs.scope?.name ?? "",
        ScopeVersion: scopeLogs.scope?.version ?? "",
        ScopeAttributes: attributeMap(scopeLogs.scope?.attributes)
      }
      for (const record of scopeLogs.logRecords) {
        const problem = recordProblem(record)
        if (problem === undefined) rows.push(logRow(record, context))
        else rejections.reject("log record", problem)
      }
    }
  }
  return { rows, rejected: rejections.count, message: rejections.message("log records") }
}
