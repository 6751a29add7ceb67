/**
 * The engine's own databases, which no caller may create or drop: an engine whose
 * `system` database was dropped breaks until it restarts. The engine compares names
 * exactly, but `information_schema` exists in both cases, so any case is refused.
 */
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"

const reserved = ["system", "information_schema", "_temporary_and_external_tables"]

/** Fails with a 400 naming `name` when it is one of the engine's own databases. */
export const refuseReserved = (name: string): Effect.Effect<void, BadRequest> =>
  reserved.includes(name.toLowerCase())
    ? Effect.fail(
        new BadRequest({
          message: `'${name}' is reserved for the engine's own database.`,
          hint: `Pick another name; ${reserved.join(", ")} are reserved, in any case.`
        })
      )
    : Effect.void
