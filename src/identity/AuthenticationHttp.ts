/**
 * The bearer middleware of every protected group: one `Authenticator` call per request.
 *
 * Delivery streams cannot send `Authorization`: they put the configured key in
 * `X-Amz-Firehose-Access-Key` (decisions.md §0). When no bearer is given, that header's
 * value is the credential; a bearer, when present, always wins. A key kept in a secrets
 * store reaches the header as `{"api_key": "…"}`, so that form is unwrapped.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Redacted } from "effect"
import { Unauthorized } from "../../domain/Errors.js"
import { Authentication, Authenticator } from "../../domain/Identity.js"

export const ACCESS_KEY_HEADER = "x-amz-firehose-access-key"

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
          if (Redacted.value(credential) !== "") {
            return yield* authenticator.authenticate(credential)
          }
          const request = yield* HttpServerRequest.HttpServerRequest
          const accessKey = request.headers[ACCESS_KEY_HEADER]?.trim() ?? ""
          if (accessKey === "") return yield* authenticator.authenticate(credential)
          return yield* authenticator
            .authenticate(Redacted.make(unwrapSecret(accessKey)))
            .pipe(Effect.mapError(() => deliveryStreamRejected))
        })
    })
  )
)
