/**
 * `/services/collector…` (spl-app): the HTTP Event Collector protocol over
 * `EventCollector`. This adapter owns what is HTTP: the credential forms, `?token=`,
 * the body (one reader, gzip), the client's address, and the `{text, code}` answers.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Option, Redacted } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import type { DataScopeNames } from "../../domain/Authorization.js"
import { CollectorRefusal, EventCollector } from "../../domain/EventCollector.js"
import type { EventDefaults, RawMetadata } from "../../domain/EventCollector.js"
import type { AppNotInstalled } from "../../domain/Errors.js"
import { Authenticator } from "../../domain/Identity.js"
import type { Caller } from "../../domain/Identity.js"
import { requestedDatabase } from "../http/DatabaseParam.js"
import { wholeBody } from "../http/RequestBody.js"
import { credentialOf } from "../http/HeaderCredential.js"
import { hecBodyRules } from "./http/HecBody.js"
import { appMissing, internal, refused, reply } from "./http/HecReply.js"

const answered = <R>(
  effect: Effect.Effect<
    HttpServerResponse.HttpServerResponse,
    CollectorRefusal | AppNotInstalled,
    R
  >
) =>
  effect.pipe(
    Effect.catchTags({
      CollectorRefusal: refused,
      AppNotInstalled: (e) => Effect.succeed(appMissing(e))
    }),
    Effect.catchAllDefect(internal)
  )

type Params = DataScopeNames

const bodyRules = hecBodyRules()

const queryToken = (request: HttpServerRequest.HttpServerRequest) =>
  Option.fromNullable(new URL(request.url, "http://x").searchParams.get("token"))

// Node gives IPv4 clients of a dual-stack socket as `::ffff:a.b.c.d`.
const clientAddress = (request: HttpServerRequest.HttpServerRequest) =>
  Option.getOrElse(request.remoteAddress, () => "unknown").replace(/^::ffff:/, "")

const sourceOf = (caller: Caller) =>
  `http:${caller._tag === "ApiKeyCaller" ? caller.keyName : caller.email}`

export const HecHttpLive = HttpApiBuilder.group(SluiceApi, "hec", (handlers) =>
  Effect.gen(function* () {
    const collector = yield* EventCollector
    const authenticator = yield* Authenticator

    const authenticate = (token: string, code: 4 | 21) =>
      authenticator
        .authenticate(Redacted.make(token))
        .pipe(Effect.mapError(() => new CollectorRefusal({ code, detail: "unknown token" })))

    /** The caller of an event request; `?token=` is checked, then refused. */
    const caller = Effect.fn("Hec.caller")(function* (
      request: HttpServerRequest.HttpServerRequest
    ) {
      const inQuery = queryToken(request)
      if (Option.isSome(inQuery)) {
        yield* authenticate(inQuery.value, 4)
        return yield* new CollectorRefusal({ code: 16, detail: "token in the query string" })
      }
      const credential = credentialOf(request.headers["authorization"])
      if (credential._tag === "missing") {
        return yield* new CollectorRefusal({ code: 2, detail: "no Authorization header" })
      }
      if (credential._tag === "malformed") {
        return yield* new CollectorRefusal({ code: 3, detail: "malformed Authorization header" })
      }
      return yield* authenticate(credential.token, 4)
    })

    const ingest =
      (
        parse: (
          body: Uint8Array,
          defaults: EventDefaults
        ) => ReturnType<typeof collector.parseEvents>
      ) =>
      ({
        request,
        urlParams
      }: {
        readonly request: HttpServerRequest.HttpServerRequest
        readonly urlParams: Params
      }) =>
        Effect.gen(function* () {
          const who = yield* caller(request)
          const database = yield* requestedDatabase(urlParams.database).pipe(
            Effect.mapError((e) => new CollectorRefusal({ code: 7, detail: e.message }))
          )
          const at = yield* collector.target(who, { ...urlParams, database })
          const body = yield* wholeBody(request, bodyRules).pipe(
            Effect.mapError((e) => new CollectorRefusal({ code: 6, detail: e.message }))
          )
          const defaults = {
            host: clientAddress(request),
            source: sourceOf(who),
            receivedAt: yield* Clock.currentTimeMillis
          }
          // The events go straight to the store, not into a variable of this generator,
          // which would hold them until the engine has them (IngestWriterLive.ts).
          yield* Effect.flatMap(parse(body, defaults), (events) => collector.store(at, events))
          return reply(0)
        }).pipe(answered)

    const events = ingest((body, defaults) => collector.parseEvents(body, defaults))
    const raw = ({
      request,
      urlParams
    }: {
      readonly request: HttpServerRequest.HttpServerRequest
      readonly urlParams: Params & RawMetadata
    }) =>
      ingest((body, defaults) => collector.parseRaw(body, urlParams, defaults))({
        request,
        urlParams
      })

    // Splunk does not check the header's token here; a valid one lets the app gate speak.
    const health = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
      Effect.gen(function* () {
        const inQuery = queryToken(request)
        const credential = credentialOf(request.headers["authorization"])
        const who = Option.isSome(inQuery)
          ? Option.some(yield* authenticate(inQuery.value, 21))
          : credential._tag === "token"
            ? yield* Effect.option(authenticate(credential.token, 4))
            : Option.none()
        if (Option.isSome(who)) yield* collector.requireApp(who.value)
        return reply(17)
      }).pipe(answered)

    const ack = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
      Effect.gen(function* () {
        yield* collector.requireApp(yield* caller(request))
        return reply(14)
      }).pipe(answered)

    return handlers
      .handleRaw("event", events)
      .handleRaw("collector", events)
      .handleRaw("event10", events)
      .handleRaw("raw", raw)
      .handleRaw("raw10", raw)
      .handleRaw("health", health)
      .handleRaw("health10", health)
      .handleRaw("ack", ack)
  })
)
