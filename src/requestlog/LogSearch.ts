/**
 * The `search` parameter of `GET /v1/logs`: free text, mixed with the
 * tokens older clients send (`status:`, `origin:`, `type:`, `table:`, `hints:`). A word
 * whose prefix is not one of those is free text (a URL's `https:` stays text); a token
 * with a value it does not know is refused, never ignored. Values are comma-separated
 * and a repeated token adds values: each token is an OR of its values.
 */
import { Either } from "effect"
import type { LogSource } from "../../domain/api/LogsApi.js"
import type { RequestType } from "./LogRecord.js"

export interface ParsedSearch {
  /** The words that are not tokens, joined by single spaces; matched as one substring. */
  readonly text?: string | undefined
  readonly statuses?: ReadonlyArray<"success" | "error"> | undefined
  readonly origins?: ReadonlyArray<LogSource> | undefined
  readonly types?: ReadonlyArray<Exclude<RequestType, "">> | undefined
  readonly tables?: ReadonlyArray<string> | undefined
  readonly hints?: ReadonlyArray<"any" | "none"> | undefined
}

const CHOICES = {
  status: ["success", "error"],
  origin: ["ui", "cli", "api"],
  type: ["select", "explain", "insert", "describe"],
  hints: ["any", "none"]
} as const

type Token = keyof typeof CHOICES | "table"

const TOKEN = /^(status|origin|type|table|hints):(.*)$/i

const isToken = (name: string): name is Token => name === "table" || name in CHOICES

const choicesOf = (token: Token): ReadonlyArray<string> | undefined =>
  token === "table" ? undefined : CHOICES[token]

// Narrows the values checked against `CHOICES[token]` back to their literal type.
const chosen = <A extends string>(
  list: ReadonlyArray<string> | undefined,
  choices: ReadonlyArray<A>
): ReadonlyArray<A> | undefined =>
  list === undefined ? undefined : choices.filter((c) => list.includes(c))

/** The parsed search, or why it cannot be honoured. */
export const parseSearch = (search: string): Either.Either<ParsedSearch, string> => {
  const words: Array<string> = []
  const values = new Map<Token, Array<string>>()
  for (const word of search.split(/\s+/).filter((w) => w !== "")) {
    const match = TOKEN.exec(word)
    const token = match?.[1]?.toLowerCase() ?? ""
    if (match === null || !isToken(token)) {
      words.push(word)
      continue
    }
    const given = (match[2] ?? "").split(",").filter((v) => v !== "")
    const choices = choicesOf(token)
    const normalised = choices === undefined ? given : given.map((v) => v.toLowerCase())
    const wrong = normalised.find((v) => choices !== undefined && !choices.includes(v))
    if (given.length === 0 || wrong !== undefined) {
      const expected =
        choices === undefined ? "one or more table names" : `one of ${choices.join(", ")}`
      return Either.left(
        `search token '${word}' cannot be honoured: ${token}: takes ${expected}, comma-separated`
      )
    }
    values.set(token, [...(values.get(token) ?? []), ...normalised])
  }
  const tables = values.get("table")
  return Either.right({
    text: words.length === 0 ? undefined : words.join(" "),
    statuses: chosen(values.get("status"), CHOICES.status),
    origins: chosen(values.get("origin"), CHOICES.origin),
    types: chosen(values.get("type"), CHOICES.type),
    tables: tables === undefined ? undefined : [...new Set(tables)],
    hints: chosen(values.get("hints"), CHOICES.hints)
  })
}
