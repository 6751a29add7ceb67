/**
 * Which names a user's statement may call: the engine's catalog less the reviewed
 * denials (`Denied.ts`). Names are compared in any case: a denied name is refused in every
 * spelling, and an allowed one in another case either is the same function to the engine
 * (`COUNT`, the special syntax of `EXTRACT(…)` and `TRIM(…)`) or an unknown one it refuses
 * itself. Aggregate functions take their combinator suffixes (`sumIf`, `uniqArrayOrNull`).
 */
import { nearest } from "../../../domain/Suggestions.js"
import * as Catalog from "./EngineCatalog.gen.js"
import { ALLOWED_TABLE_FUNCTIONS, DENIED_FUNCTIONS, isInternalName } from "./Denied.js"
import type { DenialReason } from "./Denied.js"

export type CallRefusal =
  | { readonly _tag: "Denied"; readonly name: string; readonly reason: DenialReason }
  | { readonly _tag: "Unknown"; readonly name: string; readonly suggestion: string | undefined }

const lower = (names: Iterable<string>) => new Set([...names].map((name) => name.toLowerCase()))

const aliasOf: Readonly<Record<string, string>> = Catalog.FUNCTION_ALIASES

/** Every spelling that is refused, with why: denied functions and their aliases. */
const denied: ReadonlyMap<string, DenialReason> = (() => {
  const out = new Map<string, DenialReason>()
  for (const name of Catalog.FUNCTIONS) {
    const reason = DENIED_FUNCTIONS.get(name) ?? DENIED_FUNCTIONS.get(aliasOf[name] ?? "")
    if (reason !== undefined) out.set(name.toLowerCase(), reason)
    else if (isInternalName(name))
      out.set(name.toLowerCase(), "inspects or writes to the engine's internals")
  }
  for (const [name, reason] of DENIED_FUNCTIONS) out.set(name.toLowerCase(), reason)
  for (const name of Catalog.TABLE_FUNCTIONS)
    if (!ALLOWED_TABLE_FUNCTIONS.has(name) && !out.has(name.toLowerCase()))
      out.set(name.toLowerCase(), "reaches the network or other processes")
  return out
})()

const callable = lower([...Catalog.FUNCTIONS, ...ALLOWED_TABLE_FUNCTIONS])
const aggregates = lower(Catalog.AGGREGATE_FUNCTIONS)
const combinators = [...lower(Catalog.AGGREGATE_COMBINATORS)]
/** Words that take parentheses without being calls: `IN (…)`, `Nullable(String)` … */
const syntax = lower([...Catalog.KEYWORDS, ...Catalog.DATA_TYPE_FAMILIES])

/** `sumif`, `uniqarrayornull`: an aggregate function followed by combinator suffixes. */
const isCombined = (name: string): boolean =>
  combinators.some((suffix) => {
    if (!name.endsWith(suffix) || name.length === suffix.length) return false
    const base = name.slice(0, -suffix.length)
    return aggregates.has(base) || isCombined(base)
  })

const suggestions = [...Catalog.FUNCTIONS, ...ALLOWED_TABLE_FUNCTIONS].filter(
  (name) => !denied.has(name.toLowerCase())
)

const closest = (name: string): string | undefined => nearest(name, suggestions)

/** Why `name(…)` may not be called in a user's statement, if it may not. */
export const callRefusal = (name: string): CallRefusal | undefined => {
  const key = name.toLowerCase()
  const reason = denied.get(key)
  if (reason !== undefined) return { _tag: "Denied", name, reason }
  if (callable.has(key) || isCombined(key) || syntax.has(key)) return undefined
  return { _tag: "Unknown", name, suggestion: closest(name) }
}
