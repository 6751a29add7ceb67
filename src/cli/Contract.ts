/**
 * The contract's schemas that commands check their arguments against, loaded on first
 * use: importing them at start would build every API group they belong to before any
 * command runs, a cost `query` and `insert` would pay for nothing.
 */
import { Effect } from "effect"

export const contract = Effect.promise(() => import("./ContractSchemas.js"))
