/** The OTLP app's traces: one `otel_traces` row per span (`?transform=` is `flat/`). */
import type { OtlpSpan, OtlpTracesRequest } from "../../../domain/OtlpModel.js"
import type { AttributeMap, Flattened, TraceRow } from "../../../domain/OtlpTransforms.js"
import { attributeMap, serviceNameOf } from "./AttributeText.js"
import { hex, idProblem, Rejections, SPAN_ID_BYTES, TRACE_ID_BYTES } from "./Ids.js"

const SPAN_KINDS = ["Unspecified", "Internal", "Server", "Client", "Producer", "Consumer"]
const STATUS_CODES = ["Unset", "Ok", "Error"]

export const spanProblem = (span: OtlpSpan): string | undefined =>
  idProblem("trace_id", span.traceId, TRACE_ID_BYTES, false) ??
  idProblem("span_id", span.spanId, SPAN_ID_BYTES, false) ??
  idProblem("parent_span_id", span.parentSpanId, SPAN_ID_BYTES, true) ??
  span.links
    .map(
      (link) =>
        idProblem("link trace_id", link.traceId, TRACE_ID_BYTES, false) ??
        idProblem("link span_id", link.spanId, SPAN_ID_BYTES, false)
    )
    .find((problem) => problem !== undefined)

const spanRow = (
  span: OtlpSpan,
  resource: {
    readonly ServiceName: string
    readonly ResourceAttributes: AttributeMap
    readonly ScopeName: string
    readonly ScopeVersion: string
  }
): TraceRow => ({
  Timestamp: span.startTimeUnixNano,
  TraceId: hex(span.traceId),
  SpanId: hex(span.spanId),
  ParentSpanId: hex(span.parentSpanId),
  TraceState: span.traceState,
  SpanName: span.name,
  SpanKind: SPAN_KINDS[span.kind] ?? "Unspecified",
  ServiceName: resource.ServiceName,
  ResourceAttributes: resource.ResourceAttributes,
  ScopeName: resource.ScopeName,
  ScopeVersion: resource.ScopeVersion,
  SpanAttributes: attributeMap(span.attributes),
  // An end before the start would wrap around as UInt64.
  Duration:
    span.endTimeUnixNano > span.startTimeUnixNano
      ? span.endTimeUnixNano - span.startTimeUnixNano
      : 0n,
  StatusCode: STATUS_CODES[span.status?.code ?? 0] ?? "Unset",
  StatusMessage: span.status?.message ?? "",
  "Events.Timestamp": span.events.map((event) => event.timeUnixNano),
  "Events.Name": span.events.map((event) => event.name),
  "Events.Attributes": span.events.map((event) => attributeMap(event.attributes)),
  "Links.TraceId": span.links.map((link) => hex(link.traceId)),
  "Links.SpanId": span.links.map((link) => hex(link.spanId)),
  "Links.TraceState": span.links.map((link) => link.traceState),
  "Links.Attributes": span.links.map((link) => attributeMap(link.attributes))
})

export const flattenTraces = (request: OtlpTracesRequest): Flattened<ReadonlyArray<TraceRow>> => {
  const rows: Array<TraceRow> = []
  const rejections = new Rejections()
  for (const resourceSpans of request.resourceSpans) {
    const attributes = resourceSpans.resource?.attributes
    const ResourceAttributes = attributeMap(attributes)
    const ServiceName = serviceNameOf(attributes)
    for (const scopeSpans of resourceSpans.scopeSpans) {
      const context = {
        ServiceName,
        ResourceAttributes,
        ScopeName: scopeSpans.scope?.name ?? "",
        ScopeVersion: scopeSpans.scope?.version ?? ""
      }
      for (const span of scopeSpans.spans) {
        const problem = spanProblem(span)
        if (problem === undefined) rows.push(spanRow(span, context))
        else rejections.reject(`span '${span.name}'`, problem)
      }
    }
  }
  return { rows, rejected: rejections.count, message: rejections.message("spans") }
}
