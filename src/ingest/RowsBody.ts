/** Rows a transform flattened, as the NDJSON body the records insert reads. */
import { Effect, Stream } from "effect"
import { createHash } from "node:crypto"
import type { InsertToken } from "../../domain/IngestWriter.js"
import { CHUNK_BYTES } from "./BodyInsert.js"

/** Rows as NDJSON bytes, about a quarter of `CHUNK_BYTES` of text per piece. */
export const ndjson = (rows: ReadonlyArray<string>) =>
  Stream.fromIterable(
    (function* () {
      const encoder = new TextEncoder()
      let batch: Array<string> = []
      let size = 0
      for (const row of rows) {
        batch.push(row)
        size += row.length + 1
        if (size >= CHUNK_BYTES / 4) {
          yield encoder.encode(batch.join("\n") + "\n")
          batch = []
          size = 0
        }
      }
      if (batch.length > 0) yield encoder.encode(batch.join("\n") + "\n")
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
