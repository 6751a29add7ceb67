/** Values given on the command line, checked against the contract's rules before any request. */
import { Effect, ParseResult, Schema } from "effect"
import { badUsage } from "./CliError.js"

/** The issue a person can act on: not the "expected null" branch of an optional value. */
const reasonOf = (e: ParseResult.ParseError) => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(e)
  const useful = issues.filter((i) => !/^Expected (null|undefined)\b/.test(i.message))
  const issue = useful[0] ?? issues[0]
  return issue === undefined
    ? { path: "", message: e.message }
    : { path: issue.path.map(String).join("."), message: issue.message }
}

/** A name or id (`what`: "table name", "saved search id"), refused with exit 2. */
export const nameOf = <A>(schema: Schema.Schema<A, string>, what: string, value: string) =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((e) =>
      badUsage(`${JSON.stringify(value)} is not a valid ${what}: ${reasonOf(e).message}.`)
    )
  )

/** Values for a request body, checked against the contract before it is sent. */
export const checked = <A, I>(schema: Schema.Schema<A, I>, value: unknown) =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((e) => {
      const { path, message } = reasonOf(e)
      return badUsage(path === "" ? message : `--${path.replace(/_/g, "-")}: ${message}`)
    })
  )
