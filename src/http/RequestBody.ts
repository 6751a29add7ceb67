/**
 * The one request-body reader. Bodies an endpoint reads itself (inserts, OTLP) come raw
 * from Node's request stream, never buffered by the framework, without `request.stream`'s
 * habit of destroying the socket when reading stops early: a body refused half-way still
 * gets its answer, and the rest is drained. Each endpoint gives its rules
 * (`src/body/ReadableBody.ts`); the declared length is checked before anything is read.
 * Payloads seen whole are read in one promise (`wholeBody`). Bodies HttpApi decodes are
 * read as text (`textReader`).
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { HttpIncomingMessage, HttpServerError } from "@effect/platform"
import { Effect, Option, Stream } from "effect"
import { IncomingMessage } from "node:http"
import type { BadRequest } from "../../domain/Errors.js"
import type { BodyRules } from "../body/ReadableBody.js"
import { readableBytes, readWhole } from "../body/ReadableBody.js"

/**
 * The raw body of `request`; what is left of it when reading stops is drained. The drain is
 * the stream's own finalizer (`ensuring`), which costs far less per body than a scoped
 * stream around it.
 */
export const requestBytes = (
  request: HttpServerRequest.HttpServerRequest,
  unreadable: BadRequest
) => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  return Stream.ensuring(
    readableBytes(incoming, unreadable),
    Effect.sync(() => {
      if (!incoming.readableEnded) incoming.resume()
    })
  )
}

/** A declared length over the limit is refused before anything is read. */
export const checkDeclaredLength = (
  request: HttpServerRequest.HttpServerRequest,
  rules: BodyRules
) => {
  const declared = Number(request.headers["content-length"] ?? "0")
  return declared > rules.limit ? Effect.fail(rules.tooLarge(declared)) : Effect.void
}

/**
 * The whole body of `request`, for payloads that must be seen whole (transforms, OTLP,
 * events, remote write): its declared length checked first, `encoding` (the request's
 * `content-encoding` unless given) undone; what is left when reading stops is drained.
 */
export const wholeBody = (
  request: HttpServerRequest.HttpServerRequest,
  rules: BodyRules,
  encoding: string | undefined = request.headers["content-encoding"]
) => {
  const incoming = NodeHttpServerRequest.toIncomingMessage(request)
  return Effect.zipRight(
    checkDeclaredLength(request, rules),
    Effect.ensuring(
      readWhole(incoming, encoding, rules),
      Effect.sync(() => {
        if (!incoming.readableEnded) incoming.resume()
      })
    )
  )
}

// Text bodies (the ones HttpApi decodes, and request logs): the platform's reader does the
// same work inside a cached effect run on a fiber of its own; on the query path that was a
// noticeable share of a small JSON request. This one is a single promise, shared by every
// read of the same request, with the platform's limit (`HttpIncomingMessage.MaxBodySize`)
// and errors, so `ErrorShape` answers a body past the limit with 413 either way.

/** The failure's cause for a body past the limit, in the platform reader's words. */
export const BODY_TOO_LARGE = "maxBytes exceeded"

const readAll = (source: IncomingMessage, maxBytes: number | undefined) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    let bytes = 0
    const done = () => {
      source.off("data", onData)
      source.off("end", onEnd)
      source.off("error", onError)
    }
    const onData = (chunk: string) => {
      text += chunk
      bytes += Buffer.byteLength(chunk)
      if (maxBytes !== undefined && bytes > maxBytes) {
        done()
        // Stops reading; `BodyLimitedServer` keeps the connection until the 413 is out.
        source.destroy()
        reject(new Error(BODY_TOO_LARGE))
      }
    }
    const onEnd = () => {
      done()
      resolve(text)
    }
    const onError = (error: Error) => {
      done()
      reject(error)
    }
    source.setEncoding("utf8")
    source.on("data", onData)
    source.once("end", onEnd)
    source.once("error", onError)
  })

/**
 * A reader of `request`'s body as text, memoized: every effect it returns reads the body
 * once between them. Requests not served by Node's HTTP server keep the platform's reader.
 */
export const textReader = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<string, HttpServerError.RequestError> => {
  const source = request.source
  if (!(source instanceof IncomingMessage)) return request.text
  let read: Promise<string> | undefined
  return Effect.flatMap(HttpIncomingMessage.MaxBodySize, (max) =>
    Effect.tryPromise({
      try: () =>
        (read ??= readAll(source, Option.match(max, { onNone: () => undefined, onSome: Number }))),
      catch: (cause) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
    })
  )
}
