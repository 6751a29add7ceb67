/** The insert token of rows a transform flattened. */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import type { InsertToken } from "../../domain/IngestWriter.js"

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
