/**
 * The API-wide middleware that keeps HttpApi's payload decoding to JSON. HttpApi reads
 * an endpoint's payload by the request's content type: a multipart body is parsed (its
 * files written to disk; a malformed one, or one without a boundary, dies as a 500; an
 * empty one never finishes) and a form body is decoded like JSON, so a form could create
 * a key. Every endpoint of the contract with a payload reads JSON, so for those a form or
 * multipart body is refused (415) before a byte of it is read. Endpoints that read their
 * body themselves (inserts, OTLP, the metrics-compat forms) are left alone.
 *
 * JSON bodies are checked for nesting before they are parsed (`JsonNesting.ts`).
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpRouter,
  HttpServerError,
  HttpServerRequest
} from "@effect/platform"
import { Effect, Option, Stream } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { BadRequest, UnsupportedMediaType } from "../../domain/Errors.js"
import { nestsTooDeep, tooDeepMessage } from "./JsonNesting.js"

const routeKey = (method: string, path: string) => `${method} ${path}`

/** The routes whose payload HttpApi decodes, all of them JSON. */
const jsonRoutes = (() => {
  const keys = new Set<string>()
  HttpApi.reflect(SluiceApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, payloads }) => {
      if (payloads.size > 0) keys.add(routeKey(endpoint.method, endpoint.path))
    }
  })
  return keys
})()

const unsupported = (request: HttpServerRequest.HttpServerRequest) =>
  new UnsupportedMediaType({
    message: `This endpoint reads application/json, not ${request.headers["content-type"] ?? "an empty content type"}.`,
    hint: "Send the body with content-type: application/json."
  })

/** `read` for routes that read their own body; a 415 for those HttpApi decodes as JSON. */
const unlessJsonRoute = <A, E, R>(
  request: HttpServerRequest.HttpServerRequest,
  read: Effect.Effect<A, E, R>
) =>
  Effect.flatMap(Effect.serviceOption(HttpRouter.RouteContext), (context) =>
    Option.isSome(context) &&
    jsonRoutes.has(routeKey(context.value.route.method, context.value.route.path))
      ? Effect.die(unsupported(request))
      : read
  )

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
          return unlessJsonRoute(target, target.multipart)
        case "urlParamsBody":
          return unlessJsonRoute(target, target.urlParamsBody)
        case "multipartStream":
          return Stream.unwrap(unlessJsonRoute(target, Effect.succeed(target.multipartStream)))
        default:
          return Reflect.get(target, property, receiver)
      }
    }
  })

export const JsonPayloadsLive = HttpApiBuilder.middleware((app) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.provideService(app, HttpServerRequest.HttpServerRequest, jsonOnly(request))
  )
)
