/** `?transform=cloud-logs|cloud-audit|delivery-stream` on a table insert. */
import { Effect } from "effect"
import { NotImplemented } from "../../domain/Errors.js"
import type { InsertTarget } from "../ingest/InsertHandler.js"

export const insertEventTransform = (
  _target: InsertTarget,
  transform: "cloud-logs" | "cloud-audit" | "delivery-stream"
) =>
  Effect.fail(
    new NotImplemented({
      message: `transform=${transform} is not implemented yet.`,
      hint: "Insert the records without transform."
    })
  )
