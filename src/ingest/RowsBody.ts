/** Rows a transform flattened, as the NDJSON body the records insert reads. */
import { Effect, Stream } from "effect"
import { createHash } from "node:crypto"
import type { InsertToken } from "../../domain/IngestWriter.js"
import { CHUNK_BYTES } from "./BodyInsert.js"

/** The largest piece sent on: each travels to the engine as one message. */
const PIECE_BYTES = CHUNK_BYTES / 4

// One huge row (a 64 MiB event) in one piece took its cluster's engine worker down.
function* pieces(bytes: Uint8Array) {
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    yield bytes.subarray(at, at + PIECE_BYTES)
  }
}

/** Rows as NDJSON bytes, pieces of at most a quarter of `CHUNK_BYTES`. */
export const ndjson = (rows: ReadonlyArray<string>) =>
  Stream.fromIterable(
    (function* () {
      const encoder = new TextEncoder()
      let batch: Array<string> = []
      let size = 0
      for (const row of rows) {
        batch.push(row)
        size += row.length + 1
        if (size >= PIECE_BYTES) {
          yield* pieces(encoder.encode(batch.join("\n") + "\n"))
          batch = []
          size = 0
        }
      }
      if (batch.length > 0) yield* pieces(encoder.encode(batch.join("\n") + "\n"))
    })()
  )

/**
 * The token of rows: hashed over the rows, not the body they came in, since a retried
 * delivery-stream batch may carry another `timestamp`.
 */
export const rowsToken = (
  rows: ReadonlyArray<string>,
  token: string | undefined
): InsertToken | undefined =>
  token === undefined
    ? undefined
    : {
        token,
        bodyHash: Effect.sync(() => {
          const hash = createHash("sha256")
          for (const row of rows) hash.update(row).update("\n")
          return hash.digest("hex")
        })
      }
