/**
 * The server-level middleware that records every request once it has been answered
 *. It runs inside the platform's per-request tracing span, whose span
 * id is the entry's `id`, whose trace id honours an incoming `traceparent`, and on which
 * the router notes the matched route. The record goes to `RequestLogQueue`, which never
 * waits, so logging cannot fail or slow the request.
 */
import { HttpApp, HttpServerError, HttpServerRequest } from "@effect/platform"
import type { HttpServerResponse } from "@effect/platform"
import { Clock, Context, Effect, FiberRef, Option } from "effect"
import { DATABASE_HEADER } from "../../http/DatabaseParam.js"
import { ResponseError } from "../../http/ResponseError.js"
import type { ResponseErrorSlot } from "../../http/ResponseError.js"
import { captureBody } from "./BodyCapture.js"
import type { CapturedBody } from "./BodyCapture.js"
import { levelOf } from "../LogRecord.js"
import type { LogRecord } from "../LogRecord.js"
import { redactHeaders, redactQuery, redactText } from "../Redaction.js"
import { RequestAnnotations } from "../RequestAnnotations.js"
import type { RequestAnnotationsShape } from "../RequestAnnotations.js"
import { RequestLogQueue } from "../RequestLogQueue.js"
import { HINTS_HEADER } from "../../../domain/api/QueryApi.js"
import { clientVersionOf, requestTypeOf, routeTableOf, sourceOf } from "./RequestFacts.js"
import { countStreamedBytes, responseSize } from "./ResponseFacts.js"
import type { ResponseBytes } from "./ResponseFacts.js"

const randomHex = (bytes: number) =>
  Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex")

// `/v1/tables/:table` → `/v1/tables/{table}`, the form the OpenAPI document uses.
const routeOf = (route: unknown) =>
  typeof route === "string" ? route.replace(/:(\w+)/g, "{$1}") : null

// Every text field goes through `redactText`: a key or a session token may be sent in
// any of them (a mistyped path, a custom header, an SQL literal echoed in an error).
const clip = (value: string | undefined | null, max = 2048) =>
  value === undefined || value === null ? null : redactText(value).slice(0, max)

interface Observed {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly spanId: string
  readonly traceId: string
  readonly parentSpanId: string
  readonly route: string | null
  readonly startedAt: number
  readonly startedNanos: bigint
  readonly endNanos: bigint
  readonly annotations: RequestAnnotationsShape
  readonly error: ResponseErrorSlot
  readonly body: CapturedBody
  readonly bytes: ResponseBytes
  readonly response: HttpServerResponse.HttpServerResponse
}

const toRecord = (o: Observed): LogRecord => {
  const { request, annotations: a, response } = o
  const [path = "/", query = ""] = splitUrl(request.url)
  const params = new URLSearchParams(query)
  const declared = Number(request.headers["content-length"])
  const error = response.status >= 400 ? o.error.current : null
  const userAgent = request.headers["user-agent"]
  // The endpoint's own work starts when its caller is authenticated; an endpoint that
  // needs no credential is all its own work, and a refused or unrouted request none.
  const handlerFrom =
    a.authenticatedAtNanos ??
    (o.route !== null && response.status !== 401 ? o.startedNanos : o.endNanos)
  const routeTable = routeTableOf(o.route, path)
  return {
    id: o.spanId,
    trace_id: o.traceId,
    parent_span_id: o.parentSpanId,
    created_at: new Date(o.startedAt),
    organization_id: a.organizationId,
    cluster_id: a.clusterId,
    organization: clip(a.organization),
    cluster: clip(a.cluster),
    method: clip(request.method, 16) ?? "",
    host: clip(request.headers.host, 256) ?? "",
    path: clip(path, 8192) ?? "",
    route: clip(o.route),
    status_code: response.status,
    level: levelOf(response.status),
    source: sourceOf(request.headers["x-service-client"], userAgent),
    duration_ms: Number(o.endNanos - o.startedNanos) / 1e6,
    handler_ms: Number(o.endNanos - handlerFrom) / 1e6,
    user_agent: clip(userAgent),
    client_version: clip(
      clientVersionOf(request.headers["x-service-client-version"], userAgent),
      256
    ),
    headers: JSON.stringify(redactHeaders(request.headers)),
    content_encoding: clip(request.headers["content-encoding"], 256) ?? "",
    request_size_bytes: Number.isFinite(declared) && declared >= 0 ? declared : (o.body.bytes ?? 0),
    response_size_bytes: responseSize(response, o.bytes),
    // The database a data request names, else the key's default; none outside a cluster.
    database:
      a.clusterId === null
        ? null
        : clip(
            params.get("database") ??
              request.headers[DATABASE_HEADER] ??
              a.defaultDatabase ??
              "default",
            256
          ),
    key_name: clip(a.keyName),
    user_id: a.userId,
    user_email: clip(a.userEmail),
    url_query: clip(redactQuery(query), 8192),
    request_body: o.body.text,
    error_code: error?.error ?? null,
    error_message: clip(error?.message, 8192),
    error_hint: clip(error?.hint, 8192),
    request_type: requestTypeOf(request.method, o.route, a.explain),
    tables: (routeTable === undefined ? a.tables : [routeTable, ...a.tables]).map(redactText),
    has_hints: response.headers[HINTS_HEADER] !== undefined
  }
}

const splitUrl = (url: string): [string, string] => {
  const at = url.indexOf("?")
  return at === -1 ? [url, ""] : [url.slice(0, at), url.slice(at + 1)]
}

export const requestLogMiddleware = (app: HttpApp.Default) =>
  Effect.gen(function* () {
    const log = yield* RequestLogQueue
    const request = yield* HttpServerRequest.HttpServerRequest
    const span = yield* Effect.option(Effect.currentSpan)
    const startedAt = yield* Clock.currentTimeMillis
    const startedNanos = yield* Clock.currentTimeNanos
    const annotations = RequestAnnotations.empty()
    const error = ResponseError.empty()
    const body: CapturedBody = { text: null, bytes: null }
    const bytes: ResponseBytes = { streamed: null }
    // The request's fiber is this request's alone, so the byte counter and the request's
    // own services are set on it for the rest of the request rather than around `app`:
    // scoping them (`withPreResponseHandler`, `Effect.provide`) costs a guarded
    // acquire/release each, about 20 runtime operations, on every request.
    yield* HttpApp.appendPreResponseHandler(countStreamedBytes(bytes))
    yield* FiberRef.update(FiberRef.currentContext, (context) =>
      Context.merge(
        context,
        Context.make(HttpServerRequest.HttpServerRequest, captureBody(request, body)).pipe(
          Context.add(RequestAnnotations, annotations),
          Context.add(ResponseError, error)
        )
      )
    )
    return yield* app.pipe(
      // Runs for every outcome, interruption included; a bug here costs the entry, never
      // the response (which has been sent by now).
      Effect.onExit((exit) =>
        Effect.flatMap(Clock.currentTimeNanos, (endNanos) =>
          Effect.suspend(() =>
            log.record(
              toRecord({
                request,
                spanId: Option.match(span, { onNone: () => randomHex(8), onSome: (s) => s.spanId }),
                traceId: Option.match(span, {
                  onNone: () => randomHex(16),
                  onSome: (s) => s.traceId
                }),
                parentSpanId: Option.match(span, {
                  onNone: () => "",
                  onSome: (s) =>
                    Option.match(s.parent, { onNone: () => "", onSome: (p) => p.spanId })
                }),
                route: Option.match(span, {
                  onNone: () => null,
                  onSome: (s) => routeOf(s.attributes.get("http.route"))
                }),
                startedAt,
                startedNanos,
                endNanos,
                annotations,
                error,
                body,
                bytes,
                response: HttpServerError.exitResponse(exit)
              })
            )
          ).pipe(Effect.catchAllDefect((defect) => Effect.logWarning("request not logged", defect)))
        )
      )
    )
  })
