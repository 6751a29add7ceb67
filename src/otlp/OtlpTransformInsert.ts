/** `?transform=otlp-*` on a table insert. */
import { Effect } from "effect"
import { NotImplemented } from "../../domain/Errors.js"
import type { InsertTarget } from "../ingest/InsertHandler.js"

export const insertOtlpTransform = (
  _target: InsertTarget,
  transform: "otlp-traces" | "otlp-logs" | "otlp-metrics"
) =>
  Effect.fail(
    new NotImplemented({
      message: `transform=${transform} is not implemented yet.`,
      hint: "Insert the records without transform."
    })
  )
