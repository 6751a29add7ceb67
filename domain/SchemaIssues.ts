/**
 * Schema's decode issues as the sentences a person reads: one per field. Schema reports a
 * value outside a set of literals once per literal (`Expected "JSON", actual "Pretty"`,
 * then the same for each other format), and an optional value once more for its absent
 * branch (`Expected undefined`); both are folded here into what was wrong with the field.
 */

/** An issue as `ParseResult.ArrayFormatter` (and so `HttpApiDecodeError`) gives it. */
export interface SchemaIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

export interface FieldProblem {
  /** The field's path, dot-joined; "" for the value as a whole. */
  readonly path: string
  readonly problem: string
}

const LITERAL = /^Expected ("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null), actual (.+)$/s
const ABSENT_BRANCH = /^Expected (?:undefined|null), actual /

/** A literal as the message quotes it, unquoted for the list of what is accepted. */
const literalText = (quoted: string) => {
  if (!quoted.startsWith('"')) return quoted
  try {
    return String(JSON.parse(quoted))
  } catch {
    return quoted
  }
}

/** Schema's names of what a string failed to become, as a person reads them. */
const TARGETS: Record<string, string> = {
  number: "a number",
  "DateTime.Utc": "an ISO 8601 date and time (e.g. 2026-01-31T12:00:00Z)",
  BigInt: "a whole number"
}
const UNDECODED = /^Unable to decode (.+) into a (\S+?)\.?$/s

const problemOf = (kept: ReadonlyArray<string>): string => {
  const undecoded = kept.length === 1 ? UNDECODED.exec(kept[0]!) : null
  if (undecoded !== null && TARGETS[undecoded[2]!] !== undefined)
    return `${undecoded[1]} is not ${TARGETS[undecoded[2]!]}`
  const literals = kept.map((m) => LITERAL.exec(m))
  const actuals = new Set(literals.map((m) => m?.[2]))
  if (kept.length > 1 && literals.every((m) => m !== null) && actuals.size === 1) {
    const allowed = literals.map((m) => literalText(m![1]!))
    return `${literals[0]![2]} is not one of: ${allowed.join(", ")}`
  }
  return [...new Set(kept)].join("; ")
}

/** One problem per field, in the order Schema met the fields. */
export const fieldProblems = (issues: ReadonlyArray<SchemaIssue>): ReadonlyArray<FieldProblem> => {
  const keyed = issues.map((issue) => ({ ...issue, path: issue.path.map(String).join(".") }))
  // An absent branch is noise wherever the field, or something inside it, broke a rule.
  const broken = keyed.filter((issue) => !ABSENT_BRANCH.test(issue.message)).map((i) => i.path)
  const within = (path: string) => (other: string) =>
    other === path || path === "" || other.startsWith(`${path}.`)
  const byPath = new Map<string, Array<string>>()
  for (const issue of keyed) {
    if (ABSENT_BRANCH.test(issue.message) && broken.some(within(issue.path))) continue
    const messages = byPath.get(issue.path) ?? []
    messages.push(issue.message)
    byPath.set(issue.path, messages)
  }
  return [...byPath].map(([path, messages]) => ({ path, problem: problemOf(messages) }))
}

/** A field's problem as one phrase: `format: "Pretty" is not one of: JSON, CSV`, `sql is missing`. */
export const describeProblem = ({ path, problem }: FieldProblem, name = path) =>
  name === "" ? problem : problem === "is missing" ? `${name} is missing` : `${name}: ${problem}`
