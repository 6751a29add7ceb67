/**
 * A body insert. The records are cut into chunks of whole records without parsing them
 * (RecordSplitter.ts). A body of one chunk, into a table this process has written to,
 * goes in as one statement (DirectInsert.ts); anything else through a staging table
 * (StagedInsert.ts): several statements are atomic only that way, and a table's first
 * insert in a process may create it, which a refused body must not. Measured on chDB in
 * one process: one statement against the staging table's four (insert, its paths, the
 * attach, emptying it) for 1 record, 2 ms against 21.
 */
import { Chunk, Effect, Either, Option, Stream } from "effect"
import type { BodyInsertDependencies, BodyInsertRequest, HashedToken } from "./BodyInsertRequest.js"
import { insertDirect } from "./DirectInsert.js"
import { splitFailure } from "./InsertRefusals.js"
import { RecordSplitter } from "./RecordSplitter.js"
import type { Chunk as RecordChunk } from "./RecordSplitter.js"
import { insertStaged } from "./StagedInsert.js"

/** About how much of a body goes into the engine per statement. */
export const CHUNK_BYTES = 4 * 1024 * 1024

export type { BodyInsertDependencies, BodyInsertRequest } from "./BodyInsertRequest.js"

export const insertBody = Effect.fn("BodyInsert.insert")(function* <E>(
  dependencies: BodyInsertDependencies,
  request: BodyInsertRequest<E>
) {
  const splitter = new RecordSplitter(CHUNK_BYTES, request.lines)
  const chunks = request.body.pipe(
    Stream.mapConcatEffect((bytes) =>
      Effect.try({ try: () => splitter.push(bytes), catch: splitFailure })
    ),
    Stream.concat(
      Stream.flatMap(
        Stream.fromEffect(Effect.try({ try: () => splitter.end(), catch: splitFailure })),
        Stream.fromIterable
      )
    )
  )
  // Two chunks tell a body of one chunk (the stream ended after it) from a longer one.
  // Pulled by hand: `Stream.peel` forks a fiber for the rest, which cost 0.6 ms here.
  const pull = yield* Stream.toPull(chunks)
  const ahead: Array<RecordChunk> = []
  let ended = false
  while (!ended && ahead.length < 2) {
    const next = yield* Effect.either(pull)
    if (Either.isRight(next)) ahead.push(...next.right)
    else if (Option.isNone(next.left)) ended = true
    else return yield* Effect.fail(next.left.value)
  }
  const head = Chunk.fromIterable(ahead)
  const rest = ended ? Stream.empty : Stream.repeatEffectChunkOption(pull)
  const token = Effect.suspend(() =>
    request.token === undefined
      ? Effect.succeed(Option.none<HashedToken>())
      : Effect.map(request.token.bodyHash, (hash) =>
          Option.some({ token: request.token!.token, hash })
        )
  )
  const records = () => splitter.totalRecords
  const staged = (body: Stream.Stream<RecordChunk, never> | typeof rest) =>
    insertStaged(dependencies, request, body, records, token)

  const known = dependencies.locks.stateOf(request.database, request.table).columns !== undefined
  if (Chunk.size(head) !== 1 || !known)
    return yield* staged(Stream.concat(Stream.fromChunk(head), rest))
  const only = ahead[0]!
  return yield* insertDirect(dependencies, request, only, records(), yield* token).pipe(
    Effect.catchTag("NotDirect", () => staged(Stream.make(only)))
  )
}, Effect.scoped)
