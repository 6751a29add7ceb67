/** Names given on the command line, checked against the contract's rules before any request. */
import { Effect, ParseResult, Schema } from "effect"
import { badUsage } from "./CliError.js"

export const nameOf = <A>(schema: Schema.Schema<A, string>, what: string, value: string) =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((e) =>
      badUsage(
        `${JSON.stringify(value)} is not a valid ${what} name.`,
        ParseResult.TreeFormatter.formatErrorSync(e).split("\n").pop()?.trim() ?? ""
      )
    )
  )
