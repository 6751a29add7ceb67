/**
 * The bearer middleware of every protected group: one `Authenticator` call per request.
 *
 * Delivery streams cannot send `Authorization`: they put the configured key in
 * `X-Amz-Firehose-Access-Key`. When no bearer is given, that header's
 * value is the credential; a bearer, when present, always wins. A key kept in a secrets
 * store reaches the header as `{"api_key": "…"}`, so that form is unwrapped.
 *
 * promtool cannot send a bearer: Go's HTTP client sends the URL's user info as Basic
 * auth (`http://x:<key>@host/metrics-compat`), so the Prometheus API takes the key as a
 * Basic password, read as the collector endpoints read it.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { Authentication, Authenticator } from "../../domain/Identity.js"
import { credentialOf } from "../http/HeaderCredential.js"

export const ACCESS_KEY_HEADER = "x-amz-firehose-access-key"

const BASIC_AUTH_PREFIX = "/metrics-compat/"

/** The Basic password of a Prometheus API request, when it has one. */
const basicPassword = (request: HttpServerRequest.HttpServerRequest) => {
  const header = request.headers["authorization"] ?? ""
  if (!/^basic\s/i.test(header.trim()) || !request.url.startsWith(BASIC_AUTH_PREFIX))
    return undefined
  const credential = credentialOf(header)
  return credential._tag === "token" ? credential.token : ""
}

const unwrapSecret = (value: string) => {
  if (!value.startsWith("{")) return value
  try {
    const parsed: unknown = JSON.parse(value)
    return typeof parsed === "object" &&
      parsed !== null &&
      "api_key" in parsed &&
      typeof parsed.api_key === "string"
      ? parsed.api_key
      : value
  } catch {
    return value
  }
}

const deliveryStreamRejected = new Unauthorized({
  message: "The delivery stream's access key is missing, invalid or revoked.",
  hint: "Set the stream's HTTP endpoint access key to a sluice API key (rt_…) with insert permission."
})

export const AuthenticationHttpLive = Layer.effect(
  Authentication,
  Effect.map(Authenticator, (authenticator) =>
    Authentication.of({
      bearer: (credential) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const basic = basicPassword(request)
          if (basic !== undefined) return yield* authenticator.authenticate(Redacted.make(basic))
          if (Redacted.value(credential) !== "") {
            return yield* authenticator.authenticate(credential)
          }
          const accessKey = request.headers[ACCESS_KEY_HEADER]?.trim() ?? ""
          if (accessKey === "") return yield* authenticator.authenticate(credential)
          return yield* authenticator
            .authenticate(Redacted.make(unwrapSecret(accessKey)))
            .pipe(Effect.mapError(() => deliveryStreamRejected))
        })
    })
  )
)
