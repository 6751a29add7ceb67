/**
 * A body as bytes, whatever brought it (a request, a fetched URL): the limit it must stay
 * under before and after its `content-encoding` is undone, the compressions it may use
 * and the words of each refusal (`BodyRules`). A limit holds for the bytes as sent and
 * once inflated, so a gzip bomb stops at the limit. A source is read by hand and never
 * destroyed or drained here: the caller decides what happens to the rest of a body
 * refused half-way.
 */
import { Chunk, Effect, Option, Stream } from "effect"
import type { Hash } from "node:crypto"
import type { Readable } from "node:stream"
import type { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import type { Compression } from "./Decompress.js"
import { compressionNamed, decompress } from "./Decompress.js"

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
      return Stream.mapChunksEffect(body, (pieces) => {
        for (const bytes of pieces) total += bytes.length
        return total > limit ? Effect.fail(tooLarge()) : Effect.succeed(pieces)
      })
    })

/**
 * What `source` has buffered, else its next chunk once one arrives; `undefined` at its end.
 * It fails if the source errs or closes before its end, and never destroys it.
 */
export const nextBytes = (source: Readable): Promise<Uint8Array | undefined> =>
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
 * A pull takes up to this many bytes of what has already arrived: a socket brings 64 KiB
 * a read, and each pull through a body's stream stages costs the runtime's operations (a
 * large insert was pulled many times), where a pull of several pieces costs them once.
 */
const PULL_BYTES = 256 * 1024

const turn = () => new Promise((resolve) => setImmediate(resolve))

/**
 * The next piece, once one arrives, and those that arrived by the end of the event loop's
 * turns after it, up to `PULL_BYTES`: nothing waits for bytes still to come. None at the
 * source's end.
 */
const nextPieces = async (source: Readable) => {
  const first = await nextBytes(source)
  if (first === undefined) return []
  const pieces = [first]
  let size = first.length
  // Listened to while it waits a turn for more: an error event nobody listens to is thrown
  // by the emitter, out of every fiber (a client resetting its upload would reach the
  // process's uncaught-exception handler).
  let failed: Error | undefined
  const onError = (error: Error) => {
    failed = error
  }
  source.on("error", onError)
  try {
    while (size < PULL_BYTES) {
      await turn()
      if (failed !== undefined) throw failed
      const more = source.read() as Uint8Array | null
      if (more === null) break
      pieces.push(more)
      size += more.length
    }
  } finally {
    source.off("error", onError)
  }
  return pieces
}

/**
 * The bytes of `source`; it is neither destroyed nor drained when reading stops. Each read
 * waits for the next chunk, so a source that refills as it is read is never drained in one
 * synchronous loop. Read by hand, not through `source.iterator()` with
 * `Stream.fromAsyncIterable`: that stream cost more per body (its iterator, and the
 * promise its release awaits).
 */
export const readableBytes = (source: Readable, unreadable: BadRequest) =>
  Stream.repeatEffectChunkOption(
    Effect.tryPromise({ try: () => nextPieces(source), catch: () => Option.some(unreadable) }).pipe(
      Effect.flatMap((pieces) =>
        pieces.length === 0
          ? Effect.fail(Option.none())
          : Effect.succeed(Chunk.unsafeFromArray(pieces))
      )
    )
  )

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
      : Stream.mapChunks(cap(raw), (pieces) => {
          for (const bytes of pieces) hash.update(bytes)
          return pieces
        })
  return Effect.succeed(compression === "identity" ? sent : cap(decompress(sent, compression)))
}

export const asArray = (whole: Buffer) =>
  new Uint8Array(whole.buffer, whole.byteOffset, whole.length)

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
 * stream pulls each chunk through runtime operations, many of them even for a one-chunk
 * remote write. A compressed one is inflated as it arrives, so a gzip bomb stops after
 * a prefix.
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
