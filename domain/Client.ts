/**
 * The typed client for TypeScript users, derived from the contract: one method per
 * endpoint, grouped as the API is (`client.tables.list`, `client.query.query`, …).
 * Successes decode into the domain schemas and error bodies into the domain error
 * classes of `domain/Errors.ts` (`NotFound`, `Conflict` with its `code`, …).
 */
import { HttpApiClient, HttpClient, HttpClientRequest } from "@effect/platform"
import type { HttpApi } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "./Api.js"

/** Where the service is, and the credential (API key or session token) to send. */
export interface SluiceClientOptions {
  /** The service's origin, such as `http://127.0.0.1:8123`. */
  readonly baseUrl: string | URL
  /** Sent as `Authorization: Bearer <token>` on every request; omit for public endpoints. */
  readonly token?: string | undefined
}

/** The client `makeSluiceClient` builds. */
export type SluiceClient =
  typeof SluiceApi extends HttpApi.HttpApi<string, infer Groups, infer E, infer _R>
    ? HttpApiClient.Client<Groups, E, never>
    : never

/** What building a group's methods reads of it. */
interface GroupShape {
  readonly identifier: string
  readonly topLevel: boolean
  readonly endpoints: Readonly<Record<string, unknown>>
}

/**
 * Builds a client for the service at `baseUrl`. It needs an `HttpClient.HttpClient`:
 * provide `FetchHttpClient.layer` (or a platform's own).
 *
 * ```ts
 * const program = Effect.gen(function* () {
 *   const client = yield* makeSluiceClient({ baseUrl, token })
 *   const result = yield* client.query.query({
 *     urlParams: { database: "default" },
 *     payload: QueryRequest.make({ sql: "SELECT 1" })
 *   })
 * }).pipe(Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * A call fails with the errors its endpoint declares (decoded by status from the
 * `{error, message, hint}` body, into the first error declared for that status), an
 * `HttpClientError` when the service cannot be reached or answers a status the endpoint
 * does not declare (a 500 with its trace id, for one), or a `ParseError` when a body does not decode.
 * Endpoints whose bodies are read raw (inserts, OTLP) are in the contract but send no
 * body from here, and non-JSON query formats do not decode: use plain HTTP for those.
 */
export const makeSluiceClient = (
  options: SluiceClientOptions
): Effect.Effect<SluiceClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (plain) => {
    const { token, baseUrl } = options
    const httpClient =
      token === undefined
        ? plain
        : HttpClient.mapRequest(plain, HttpClientRequest.bearerToken(token))
    // Each method is built on its first call: building all of the contract's 88 endpoints
    // (their decoders by status) cost a command line run ~50 ms to call one of them.
    const client: Record<string, unknown> = {}
    for (const group of Object.values<GroupShape>(SluiceApi.groups)) {
      // As `HttpApiClient.make` places them: a top-level group's methods on the client itself.
      const methods: Record<string, unknown> = group.topLevel ? client : {}
      if (!group.topLevel) client[group.identifier] = methods
      for (const endpoint of Object.keys(group.endpoints)) {
        let built: ((request: unknown) => Effect.Effect<unknown, unknown>) | undefined
        const build = Effect.suspend(() =>
          built !== undefined
            ? Effect.succeed(built)
            : Effect.map(
                HttpApiClient.endpoint(SluiceApi, {
                  group: group.identifier as never,
                  endpoint: endpoint as never,
                  httpClient,
                  baseUrl
                }),
                (method) => (built = method as never)
              )
        )
        methods[endpoint] = (request: unknown) => Effect.flatMap(build, (method) => method(request))
      }
    }
    return client as unknown as SluiceClient
  })
