/**
 * The typed client of the contract (`domain/Client.ts`) as the command line uses it: the
 * session's address and credential, the CLI's identifying headers on every request, and
 * every failure turned into one line of message and hint. Loaded on first use, so that
 * commands that stream raw (`query`, `insert`) do not pay for building it.
 */
import type { HttpClientError } from "@effect/platform/HttpClientError"
import { Effect, Layer, ParseResult } from "effect"
import type { SluiceClient } from "../../domain/Client.js"
import { failure } from "./CliError.js"
import type { CliError } from "./CliError.js"
import { cliHint, errorOf, isLoginSession, sessionEnded, unreachable } from "./Http.js"
import type { Session } from "./Session.js"
import { clientHeaders } from "./Version.js"

const clientOf = (session: Session) =>
  Effect.promise(async () => {
    // Modules by their own paths: the package's index would bring its API-docs pages along.
    const [{ makeSluiceClient }, { nodeHttpClient }, HttpClient] = await Promise.all([
      import("../../domain/Client.js"),
      import("./NodeHttpClient.js"),
      import("@effect/platform/HttpClient")
    ])
    const layer = Layer.succeed(HttpClient.HttpClient, nodeHttpClient(clientHeaders))
    return { make: makeSluiceClient({ baseUrl: session.url, token: session.token }), layer }
  })

const isHttpClientError = (e: object): e is HttpClientError =>
  "_tag" in e && (e._tag === "RequestError" || e._tag === "ResponseError")

/** Any failure of a typed call as the CLI reports it. */
export const describeFailure = (session: Session, e: unknown): Effect.Effect<never, CliError> => {
  if (typeof e === "object" && e !== null) {
    if (ParseResult.isParseError(e))
      return Effect.fail(
        failure(
          "The server's answer did not match the contract.",
          "Are the CLI and the server the same version? `sluice version`"
        )
      )
    if (isHttpClientError(e)) {
      if (e._tag === "RequestError")
        return Effect.fail(unreachable(session, e.cause ?? e.description ?? e.reason))
      const response = e.response
      return Effect.flatMap(
        Effect.orElseSucceed(response.text, () => ""),
        (text) => Effect.fail(errorOf(response.status, text, session))
      )
    }
    if ("_tag" in e && e._tag === "Unauthorized" && isLoginSession(session))
      return Effect.fail(sessionEnded(session))
    if ("message" in e && typeof e.message === "string")
      return Effect.fail(
        failure(
          e.message,
          cliHint(e.message, "hint" in e && typeof e.hint === "string" ? e.hint : "")
        )
      )
  }
  return Effect.fail(failure(String(e)))
}

/** Runs `f` with the typed client; its failures become CLI failures. */
export const withClient = <A, E>(
  session: Session,
  f: (client: SluiceClient) => Effect.Effect<A, E>
): Effect.Effect<A, CliError> =>
  Effect.flatMap(clientOf(session), ({ make, layer }) =>
    Effect.flatMap(make, f).pipe(
      Effect.provide(layer),
      Effect.catchAll((e) => describeFailure(session, e))
    )
  )
