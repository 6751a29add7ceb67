/** `otlp-traces` as OTLP/JSON-named rows: one per span. */
import type { OtlpSpan, OtlpTracesRequest } from "../../../domain/OtlpModel.js"
import type { Flattened } from "../../../domain/OtlpTransforms.js"
import { hex, Rejections } from "../transforms/Ids.js"
import { spanProblem } from "../transforms/TracesTransform.js"
import { FlatFields } from "./FlatRow.js"
import type { FlatValue } from "./FlatRow.js"
import { addAttributes, nanos, resourceFields } from "./FlatValue.js"

type Shared = ReadonlyArray<readonly [string, FlatValue]>

const spanRow = (span: OtlpSpan, scope: Shared) =>
  new FlatFields()
    .set("traceId", hex(span.traceId))
    .set("spanId", hex(span.spanId))
    .set("parentSpanId", hex(span.parentSpanId))
    .set("traceState", span.traceState)
    .set("name", span.name)
    .set("kind", BigInt(span.kind))
    .set("startTimeUnixNano", nanos(span.startTimeUnixNano))
    .set("endTimeUnixNano", nanos(span.endTimeUnixNano))
    .set("status.code", BigInt(span.status?.code ?? 0))
    .set("status.message", span.status?.message ?? "")
    .list(
      "events",
      span.events.map((event) => {
        const fields = new FlatFields()
          .set("timeUnixNano", nanos(event.timeUnixNano))
          .set("name", event.name)
        addAttributes(fields, "attributes.", event.attributes)
        return fields.fields
      })
    )
    .list(
      "links",
      span.links.map((link) => {
        const fields = new FlatFields()
          .set("traceId", hex(link.traceId))
          .set("spanId", hex(link.spanId))
          .set("traceState", link.traceState)
        addAttributes(fields, "attributes.", link.attributes)
        return fields.fields
      })
    )
    .merge(scope)

export const spanRows = (request: OtlpTracesRequest): Flattened<ReadonlyArray<string>> => {
  const rows: Array<string> = []
  const rejections = new Rejections()
  for (const resourceSpans of request.resourceSpans) {
    const resource = resourceFields(resourceSpans.resource?.attributes)
    for (const scopeSpans of resourceSpans.scopeSpans) {
      const scope: Shared = [
        ["scope.name", scopeSpans.scope?.name ?? ""],
        ["scope.version", scopeSpans.scope?.version ?? ""]
      ]
      for (const span of scopeSpans.spans) {
        const problem = spanProblem(span)
        if (problem !== undefined) {
          rejections.reject(`span '${span.name}'`, problem)
          continue
        }
        const row = spanRow(span, scope)
        addAttributes(row, "attributes.", span.attributes)
        // Last, so a resource attribute never replaces a field of the span.
        rows.push(row.merge(resource).json())
      }
    }
  }
  return { rows, rejected: rejections.count, message: rejections.message("spans") }
}
