/** `otlp-logs` as OTLP/JSON-named rows: one per log record. */
import type { OtlpLogRecord, OtlpLogsRequest } from "../../../domain/OtlpModel.js"
import type { Flattened } from "../../../domain/OtlpTransforms.js"
import { hex, Rejections } from "../transforms/Ids.js"
import { recordProblem } from "../transforms/LogsTransform.js"
import { FlatFields } from "./FlatRow.js"
import type { FlatValue } from "./FlatRow.js"
import { addAttributes, addValue, nanos, resourceFields } from "./FlatValue.js"

type Shared = ReadonlyArray<readonly [string, FlatValue]>

const recordRow = (record: OtlpLogRecord, scope: Shared, resource: Shared) => {
  const row = new FlatFields()
    .set("timeUnixNano", nanos(record.timeUnixNano))
    .set("observedTimeUnixNano", nanos(record.observedTimeUnixNano))
    .set("severityNumber", BigInt(record.severityNumber))
    .set("severityText", record.severityText)
  addValue(row, "body", record.body)
  addAttributes(row, "attributes.", record.attributes)
  row
    .set("traceId", hex(record.traceId))
    .set("spanId", hex(record.spanId))
    .set("flags", BigInt(record.flags))
  if (record.eventName !== "") row.set("eventName", record.eventName)
  return row.merge(scope).merge(resource).json()
}

export const logRows = (request: OtlpLogsRequest): Flattened<ReadonlyArray<string>> => {
  const rows: Array<string> = []
  const rejections = new Rejections()
  for (const resourceLogs of request.resourceLogs) {
    const resource = resourceFields(resourceLogs.resource?.attributes)
    for (const scopeLogs of resourceLogs.scopeLogs) {
      const scope: Shared = [
        ["scope.name", scopeLogs.scope?.name ?? ""],
        ["scope.version", scopeLogs.scope?.version ?? ""]
      ]
      for (const record of scopeLogs.logRecords) {
        const problem = recordProblem(record)
        if (problem === undefined) rows.push(recordRow(record, scope, resource))
        else rejections.reject("log record", problem)
      }
    }
  }
  return { rows, rejected: rejections.count, message: rejections.message("log records") }
}
