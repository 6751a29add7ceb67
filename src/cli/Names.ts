/** Values given on the command line, checked against the contract's rules before any request. */
import { Effect, ParseResult, Schema } from "effect"
import { describeProblem, fieldProblems } from "../../domain/SchemaIssues.js"
import { badUsage } from "./CliError.js"

/** The first field's problem, as the API would word it. */
const reasonOf = (e: ParseResult.ParseError) =>
  fieldProblems(ParseResult.ArrayFormatter.formatErrorSync(e))[0] ?? {
    path: "",
    problem: e.message
  }

/** A name or id (`what`: "table name", "saved search id"), refused with exit 2. */
export const nameOf = <A>(schema: Schema.Schema<A, string>, what: string, value: string) =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((e) =>
      badUsage(`${JSON.stringify(value)} is not a valid ${what}: ${reasonOf(e).problem}.`)
    )
  )

/**
 * Values for a request body, checked against the contract before it is sent. A refusal
 * names the value as the command line takes it: `words` for the body's fields given
 * otherwise than as `--field-name` (an argument such as `<email>`, a shorter option), and
 * `""` for a value checked whole.
 */
export const checked = <A, I>(
  schema: Schema.Schema<A, I>,
  value: unknown,
  words: Readonly<Record<string, string>> = {}
) =>
  Schema.decodeUnknown(schema)(value).pipe(
    Effect.mapError((e) => {
      const { path, problem } = reasonOf(e)
      // A value checked whole (a flag's own text) is named by `words[""]`.
      if (path === "" && words[""] === undefined) return badUsage(problem)
      const field = path.split(".")[0]!
      const word = words[field] ?? `--${field.replace(/_/g, "-")}`
      // A rule that names its field (`idle_timeout_minutes is 0 (off) or …`) names the word.
      return badUsage(
        problem.startsWith(`${field} `)
          ? `${word}${problem.slice(field.length)}.`
          : `${describeProblem({ path, problem }, word)}.`
      )
    })
  )
