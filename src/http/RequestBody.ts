/**
 * The one request-body reader. Bodies an endpoint reads itself (inserts, OTLP) come raw
 * from Node's request stream, never buffered by the framework, without `request.stream`'s
 * habit of destroying the socket when reading stops early: a body refused half-way still
 * gets its answer, and the rest is drained. Each endpoint gives its limit, the
 * compressions it reads and its own words for a refusal (`BodyRules`); the limit holds
 * for the declared length, the bytes as sent and the bytes once inflated, so a gzip bomb
 * stops at the limit. Inserts stream their body to the engine (`streamedBody`); payloads
 * seen whole are read in one promise (`wholeBody`). Bodies HttpApi decodes are read as
 * text (`textReader`).
 */
import type { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { HttpIncomingMessage, HttpServerError } from "@effect/platform"
import { Chunk, Effect, Option, Stream } from "effect"
import { IncomingMessage } from "node:http"
import type { Hash } from "node:crypto"
import type { Readable } from "node:stream"
import type { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import type { Compression } from "../body/Decompress.js"
import { compressionNamed, decompress } from "../body/Decompress.js"

export interface BodyRules {
  readonly limit: number
  readonly compressions: ReadonlyArray<Compression>
  /** `declared`: the `content-length` when that is what is refused. */
  readonly tooLarge: (declared: number | undefined) => PayloadTooLarge
  readonly unsupportedEncoding: (encoding: string | undefined) => UnsupportedMediaType
  readonly unreadable: BadRequest
}

export type BodyError = BadRequest | PayloadTooLarge

/** `body`, failing once more than `limit` bytes went through. */
export const capped =
  (limit: number, tooLarge: () => PayloadTooLarge) =>
  <E>(body: Stream.Stream<Uint8Array, E>): Stream.Stream<Uint8Array, E | PayloadTooLarge> =>
    Stream.suspend(() => {
      let total = 0
      return Stream.mapEffect(body, (bytes) => {
        total += bytes.length
        return total > limit ? Effect.fail(tooLarge()) : Effect.succeed(bytes)
      })
    })

/**
 * What `source` has buffered, else its next chunk once one arrives; `undefined` at its end.
 * It fails if the source errs or closes before its end, and never destroys it.
 */
const nextBytes = (source: Readable): Promise<Uint8Array | undefined> =>
  new Promise((resolve, reject) => {
    const ready = source.read() as Uint8Array | null
    if (ready !== null) return resolve(ready)
    if (source.readableEnded) return resolve(undefined)
    if (source.destroyed) return reject(source.errored ?? new Error("closed before its end"))
    const settle = () => {
      source.off("readable", onReadable)
      source.off("end", onEnd)
      source.off("error", onError)
      source.off("close", onClose)
    }
    const onReadable = () => {
      const bytes = source.read() as Uint8Array | null
      if (bytes === null) return
      settle()
      resolve(bytes)
    }
    const onEnd = () => {
      settle()
      resolve(undefined)
    }
    const onError = (error: Error) => {
      settle()
      reject(error)
    }
    const onClose = () => {
      settle()
      if (source.readableEnded) resolve(undefined)
      else reject(new Error("closed before its end"))
    }
    source.on("readable", onReadable)
    source.once("end", onEnd)
    source.once("error", onError)
    source.once("close", onClose)
  })

/**
 * The bytes of `source`; it is neither destroyed nor drained when reading stops. Each read
 * waits for the next chunk, so a source that refills as it is read is never drained in one
 * synchronous loop. Read by hand, not through `source.iterator()` with
 * `Stream.fromAsyncIterable`: that stream cost 60 µs more per body (its iterator, and the
 * promise its release awaits), measured.
 */
export const readableBytes = (source: Readable, unreadable: BadRequest) =>
  Stream.repeatEffectOption(
    Effect.tryPromise({ try: () => nextBytes(source), catch: () => Option.some(unreadable) }).pipe(
      Effect.flatMap((bytes) =>
        bytes === undefined ? Effect.fail(Option.none()) : Effect.succeed(bytes)
      )
    )
  )

/**
 * The raw body of `request`; what is left of it when reading stops is drained. The drain is
 * the stream's own finalizer (`ensuring`), which cost 3 µs where a scoped stream around it
 * cost 55 µs per body, measured.
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
 * `raw` with its `content-encoding` undone, under the limit before and after; `hash`
 * sees the bytes as sent (for insert tokens).
 */
export const decodedBody = <E>(
  raw: Stream.Stream<Uint8Array, E>,
  encoding: string | undefined,
  rules: BodyRules,
  hash?: Hash
): Effect.Effect<Stream.Stream<Uint8Array, E | BodyError>, UnsupportedMediaType> => {
  const compression = compressionNamed(encoding)
  if (
    compression === undefined ||
    (compression !== "identity" && !rules.compressions.includes(compression))
  ) {
    return Effect.fail(rules.unsupportedEncoding(encoding))
  }
  const cap = capped(rules.limit, () => rules.tooLarge(undefined))
  const sent =
    hash === undefined
      ? cap(raw)
      : cap(raw).pipe(Stream.tap((bytes) => Effect.sync(() => hash.update(bytes))))
  return Effect.succeed(compression === "identity" ? sent : cap(decompress(sent, compression)))
}

/** The body of `request` as it arrives, decoded; its declared length is checked first. */
export const streamedBody = (
  request: HttpServerRequest.HttpServerRequest,
  rules: BodyRules,
  hash?: Hash
) =>
  Effect.zipRight(
    checkDeclaredLength(request, rules),
    decodedBody(
      requestBytes(request, rules.unreadable),
      request.headers["content-encoding"],
      rules,
      hash
    )
  )

const asArray = (whole: Buffer) => new Uint8Array(whole.buffer, whole.byteOffset, whole.length)

/** All of `body`, as one array. */
const collect = <E>(body: Stream.Stream<Uint8Array, E>) =>
  Effect.map(Stream.runCollect(body), (chunks) =>
    asArray(Buffer.concat(Chunk.toReadonlyArray(chunks)))
  )

/** All of `source`, or `undefined` once more than `limit` bytes came (reading stops there). */
const allBytes = async (source: Readable, limit: number) => {
  const chunks: Array<Uint8Array> = []
  let total = 0
  for (;;) {
    const bytes = await nextBytes(source)
    if (bytes === undefined) return asArray(Buffer.concat(chunks, total))
    total += bytes.length
    if (total > limit) return undefined
    chunks.push(bytes)
  }
}

/**
 * All of `source` with `encoding` undone, under the limit before and after. It is neither
 * destroyed nor drained here: the caller decides what happens to the rest of a body
 * refused half-way. A body sent as is is read in one promise, not through a stream: the
 * stream pulls each chunk through runtime operations, about 600 of them for a one-chunk
 * remote write (0.5 ms of CPU), measured. A compressed one is inflated as it arrives,
 * so a gzip bomb stops after a prefix.
 */
export const readWhole = (
  source: Readable,
  encoding: string | undefined,
  rules: BodyRules
): Effect.Effect<Uint8Array, BodyError | UnsupportedMediaType> =>
  compressionNamed(encoding) === "identity"
    ? Effect.flatMap(
        Effect.tryPromise({
          try: () => allBytes(source, rules.limit),
          catch: () => rules.unreadable
        }),
        (bytes) =>
          bytes === undefined ? Effect.fail(rules.tooLarge(undefined)) : Effect.succeed(bytes)
      )
    : Effect.flatMap(decodedBody(readableBytes(source, rules.unreadable), encoding, rules), collect)

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
// same work inside a cached effect run on a fiber of its own; on the query path that cost
// about 0.2 ms of a small JSON request (measured on this service's bench). This one is a
// single promise, shared by every read of the same request, with the platform's limit
// (`HttpIncomingMessage.MaxBodySize`) and errors, so `ErrorShape` answers a body past the
// limit with 413 either way.

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
