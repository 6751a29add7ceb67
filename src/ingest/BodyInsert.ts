/**
 * Inserts of records. A client's body is cut into chunks of whole records without
 * parsing it (RecordSplitter.ts); rows made here are cut as they are written, without a
 * scan: a transform's, one JSON object each (`rowChunks`), and events, in `RowBinary`
 * (EventRows.ts). A body of one chunk, into a table this process has written to, goes in
 * as one statement (DirectInsert.ts); anything else through a staging table
 * (StagedInsert.ts): several statements are atomic only that way, and a table's first
 * insert in a process may create it, which a refused body must not. For a small body,
 * one statement costs far less than the staging table's four (insert, its paths, the
 * attach, emptying it).
 */
import { Chunk, Effect, Option, Stream } from "effect"
import type { Scope } from "effect"
import { WHOLE_INSERT_BYTES } from "../../domain/Engine.js"
import type {
  BodyInsertDependencies,
  BodyInsertRequest,
  HashedToken,
  InsertTarget
} from "./BodyInsertRequest.js"
import { tableKind } from "./BodyInsertRequest.js"
import { insertDirect } from "./DirectInsert.js"
import { splitFailure } from "./InsertRefusals.js"
import type { MalformedRecords } from "../../domain/Errors.js"
import { RecordSplitter } from "./RecordSplitter.js"
import type { Chunk as RecordChunk } from "./RecordSplitter.js"
import { insertStaged } from "./StagedInsert.js"
import { refuseOtherLayout } from "../otlp/TableKindRefusal.js"
import { lookAheadPull, pullIterator } from "../stream/LookAhead.js"
import type { Pull } from "../stream/LookAhead.js"

/** About how much of a body goes into the engine per statement. */
export const CHUNK_BYTES = 4 * 1024 * 1024

export type { BodyInsertDependencies, BodyInsertRequest } from "./BodyInsertRequest.js"

const insertChunks = <E>(
  dependencies: BodyInsertDependencies,
  target: InsertTarget,
  /** The body's chunks, opened in the insert's scope. */
  open: Effect.Effect<Pull<RecordChunk, E>, never, Scope.Scope>,
  /** The records sent, once the chunks have ended. */
  records: () => number
) =>
  Effect.gen(function* () {
    const kind = yield* tableKind(dependencies, target.engine, target.database, target.table)
    yield* refuseOtherLayout(target.table, kind)
    // A body of one chunk goes in as one statement, once the body has ended (so all of
    // it was checked). A longer body's first chunk is full (not its last): it starts into
    // the staging table at once, while the rest of the body is still arriving.
    const { ahead, all, ended } = yield* lookAheadPull(
      yield* open,
      (read) => read.length >= 2 || (read.length === 1 && !read[0]!.last)
    )
    const token = Effect.suspend(() =>
      target.token === undefined
        ? Effect.succeed(Option.none<HashedToken>())
        : Effect.map(target.token.bodyHash, (hash) =>
            Option.some({ token: target.token!.token, hash })
          )
    )
    const staged = (body: Stream.Stream<RecordChunk, E>) =>
      insertStaged(dependencies, target, body, records, token)

    const known = dependencies.locks.stateOf(target.database, target.table).columns !== undefined
    const only = ahead[0]
    if (only === undefined || ahead.length > 1 || !ended || !known) {
      return yield* staged(all)
    }
    return yield* insertDirect(dependencies, target, only, records(), yield* token).pipe(
      Effect.catchTag("NotDirect", () => staged(Stream.make(only)))
    )
  }).pipe(Effect.scoped)

/**
 * The record chunks of `body`, cut as its bytes arrive: each read pulls the body once and
 * hands what it brought to the splitter. Written as a pull, not as stream stages: those
 * cost the small insert noticeable time between the body's end and the last chunk.
 */
const split = <E>(
  body: Pull<Uint8Array, E>,
  splitter: RecordSplitter
): Pull<RecordChunk, E | MalformedRecords> => {
  let ended = false
  const cut = (chunks: () => Array<RecordChunk>): Pull<RecordChunk, E | MalformedRecords> =>
    Effect.try({
      try: () => Chunk.unsafeFromArray(chunks()),
      catch: (error) => Option.some(splitFailure(error))
    })
  return Effect.suspend(() =>
    ended
      ? Effect.fail(Option.none())
      : Effect.matchEffect(body, {
          onSuccess: (pieces) =>
            cut(() => Chunk.toReadonlyArray(pieces).flatMap((piece) => splitter.push(piece))),
          onFailure: (end): Pull<RecordChunk, E | MalformedRecords> => {
            if (Option.isSome(end)) return Effect.fail(end)
            ended = true
            return cut(() => splitter.end())
          }
        })
  )
}

/** A client's body of records: one object, an array of objects, or NDJSON. */
export const insertBody = Effect.fn("BodyInsert.insertBody")(function* <E>(
  dependencies: BodyInsertDependencies,
  request: BodyInsertRequest<E>
) {
  const splitter = new RecordSplitter(CHUNK_BYTES, request.lines)
  return yield* insertChunks(
    dependencies,
    request,
    Effect.map(Stream.toPull(request.body), (body) => split(body, splitter)),
    () => splitter.totalRecords
  )
})

// One huge row (a 64 MiB event) in one piece took its cluster's engine worker down, so a
// chunk travels in pieces no larger than a whole insert; one within it stays one piece,
// which the engine takes in one call without joining anything.
export function* pieces(bytes: Uint8Array) {
  for (let at = 0; at < bytes.length; at += WHOLE_INSERT_BYTES) {
    yield bytes.subarray(at, at + WHOLE_INSERT_BYTES)
  }
}

/**
 * Rows, each one JSON object on one line, as chunks of about `CHUNK_BYTES`, each encoded
 * when it is taken.
 */
export function* rowChunks(rows: ReadonlyArray<string>): Generator<RecordChunk> {
  const encoder = new TextEncoder()
  let first = 0
  while (first < rows.length) {
    let end = first
    let size = 0
    while (end < rows.length && (end === first || size < CHUNK_BYTES)) {
      size += rows[end]!.length + 1
      end++
    }
    // The last row's newline joined in, not appended: appending to the joined text made
    // the encoder copy all of it once more, a good part of the encoding's time.
    const lines = rows.slice(first, end)
    lines.push("")
    const bytes = encoder.encode(lines.join("\n"))
    yield {
      parts: [...pieces(bytes)],
      firstRecord: first,
      records: end - first,
      lines: Array.from({ length: end - first }, (_, i) => first + i + 1),
      last: end === rows.length
    }
    first = end
  }
}

/**
 * Rows made here, as `rowChunks` or `eventChunks` cuts them: `chunks` starts them again
 * for each run of the insert; `records` is how many rows they hold.
 */
export const insertRowChunks = (
  dependencies: BodyInsertDependencies,
  target: InsertTarget,
  chunks: () => Iterator<RecordChunk>,
  records: number
) =>
  insertChunks(
    dependencies,
    target,
    Effect.sync(() => pullIterator(chunks())),
    () => records
  ).pipe(Effect.withSpan("BodyInsert.insertRows"))

/** Rows made here, each one JSON object (`JSON.stringify`'s), encoded as the insert takes them. */
export const insertRows = (
  dependencies: BodyInsertDependencies,
  target: InsertTarget,
  rows: ReadonlyArray<string>
) => insertRowChunks(dependencies, target, () => rowChunks(rows), rows.length)
