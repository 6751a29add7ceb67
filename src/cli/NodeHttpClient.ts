/**
 * The typed client's transport over Node's own `http`, on the raw requests' kept
 * connections (Http.ts). Loaded with the typed client, on first use. `fetch` cost a
 * management command ~0.1 s of CPU more: Node loads its HTTP stack and compiles its HTTP
 * parser (WebAssembly) for the first request, and a command makes one or two.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { Effect } from "effect"
import { nodeRequest } from "./Http.js"

// Statuses whose answers have no body: a web `Response` refuses one for them.
const NO_BODY: ReadonlySet<number> = new Set([101, 103, 204, 205, 304])

/**
 * `headersOfEvery` on each request. An answer is read whole and handed over as a web
 * `Response`: the typed client decodes JSON bodies, which the API keeps small.
 */
export const nodeHttpClient = (headersOfEvery: Readonly<Record<string, string>>) =>
  HttpClient.make((clientRequest, url, signal) =>
    Effect.async<HttpClientResponse.HttpClientResponse, HttpClientError.HttpClientError>(
      (resume) => {
        const failed = (reason: "Transport" | "Encode", cause: unknown) =>
          resume(
            Effect.fail(new HttpClientError.RequestError({ request: clientRequest, reason, cause }))
          )
        const body = clientRequest.body
        const bytes =
          body._tag === "Empty"
            ? undefined
            : body._tag === "Uint8Array"
              ? body.body
              : body._tag === "Raw" &&
                  (typeof body.body === "string" || body.body instanceof Uint8Array)
                ? body.body
                : null
        if (bytes === null) return failed("Encode", new Error(`a ${body._tag} body is not sent`))
        const headers: Record<string, string> = { ...headersOfEvery, ...clientRequest.headers }
        if (bytes !== undefined) headers["content-length"] = String(Buffer.byteLength(bytes))
        const req = nodeRequest(url, clientRequest.method, headers)
        req.on("response", (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (chunk: Buffer) => chunks.push(chunk))
          res.on("error", (cause) => failed("Transport", cause))
          res.on("end", () => {
            const status = res.statusCode ?? 0
            const answer = new Headers()
            for (const [name, value] of Object.entries(res.headers))
              for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
                answer.append(name, one)
            const whole = NO_BODY.has(status) ? null : Buffer.concat(chunks)
            resume(
              Effect.succeed(
                HttpClientResponse.fromWeb(
                  clientRequest,
                  new Response(whole, { status, headers: answer })
                )
              )
            )
          })
        })
        req.on("error", (cause) => failed("Transport", cause))
        const abort = () => req.destroy()
        signal.addEventListener("abort", abort, { once: true })
        req.end(bytes)
        return Effect.sync(abort)
      }
    )
  )
