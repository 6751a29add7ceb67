/**
 * The API-wide middleware that keeps HttpApi's payload decoding to JSON. HttpApi reads
 * an endpoint's payload by the request's content type: a multipart body is parsed (its
 * files written to disk; a malformed one, or one without a boundary, dies as a 500; an
 * empty one never finishes) and a form body is decoded like JSON, so a form could create
 * a key. So a form or multipart body is refused (415) before a byte of it is read unless
 * the endpoint declares its payload as one (the device-login page's forms). Endpoints that read their
 * body themselves (inserts, OTLP, the metrics-compat forms) are left alone.
 *
 * JSON bodies are checked for nesting before they are parsed (`JsonNesting.ts`).
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpMethod,
  HttpRouter,
  HttpServerError,
  HttpServerRequest
} from "@effect/platform"
import { Effect, Option, Stream } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { BadRequest, UnsupportedMediaType } from "../../domain/Errors.js"
import { nestsTooDeep, tooDeepMessage } from "../body/JsonNesting.js"

const routeKey = (method: string, path: string) => `${method} ${path}`
const MULTIPART = "multipart/form-data"
const FORM = "application/x-www-form-urlencoded"

/**
 * The content types each route's payload is declared with (most routes: JSON only; the
 * device-login page's forms: url-encoded).
 */
const payloadTypes = (() => {
  const types = new Map<string, ReadonlySet<string>>()
  HttpApi.reflect(SluiceApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, payloads }) => {
      if (payloads.size > 0)
        types.set(routeKey(endpoint.method, endpoint.path), new Set(payloads.keys()))
    }
  })
  return types
})()

const unsupported = (request: HttpServerRequest.HttpServerRequest) =>
  new UnsupportedMediaType({
    message: `This endpoint reads application/json, not ${request.headers["content-type"] ?? "an empty content type"}.`,
    hint: "Send the body with content-type: application/json."
  })

/**
 * `read` for routes that read their own body or declare `contentType`; a 415 for routes
 * whose declared payload is of another type.
 */
const unlessDeclaredOtherwise = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  contentType: string,
  read: Effect.Effect<A, E, R>
) =>
  Effect.flatMap(Effect.serviceOption(HttpRouter.RouteContext), (context) => {
    const declared = Option.flatMapNullable(context, ({ route }) =>
      payloadTypes.get(routeKey(route.method, route.path))
    )
    return Option.isSome(declared) && !declared.value.has(contentType)
      ? Effect.die(unsupported(request))
      : read
  })

const tooDeep = new BadRequest({
  message: `The request body is ${tooDeepMessage}.`,
  hint: "Send a flatter JSON document."
})

const parsedJson = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(request.text, (text) => {
    if (nestsTooDeep(text)) return Effect.die(tooDeep)
    return Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
    })
  })

const jsonOnly = (request: HttpServerRequest.HttpServerRequest) =>
  new Proxy(request, {
    get(target, property, receiver) {
      switch (property) {
        case "json":
          return parsedJson(target)
        case "multipart":
          return unlessDeclaredOtherwise(target, MULTIPART, target.multipart)
        case "urlParamsBody":
          return unlessDeclaredOtherwise(target, FORM, target.urlParamsBody)
        case "multipartStream":
          return Stream.unwrap(
            unlessDeclaredOtherwise(target, MULTIPART, Effect.succeed(target.multipartStream))
          )
        default:
          return Reflect.get(target, property, receiver)
      }
    }
  })

/**
 * Requests of a method without a body (GET, HEAD, OPTIONS: HttpApi then takes the payload
 * from the URL, and no handler reads one) go through as they are: the proxy slows every
 * read of the request, and providing it copies the request fiber's whole context.
 */
export const JsonPayloadsLive = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    HttpMethod.hasBody(request.method)
      ? Effect.provideService(app, HttpServerRequest.HttpServerRequest, jsonOnly(request))
      : app
  )
)
