/**
 * The `hints` of a query result: one sentence per referenced field that has held more
 * than one type (decisions.md §5), saying how its values count in the query and where
 * the originals are. Column types come from the ALIAS columns' comments (`Layout.ts`).
 *
 * The tables code offers no hook when an insert widens a column, so each table's mixed
 * columns are cached for `CACHE_TTL_MS` only: a field that became mixed a moment ago may
 * go unhinted for that long. A failed lookup yields no hints rather than a failed query.
 */
import { Effect } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { RAW_COLUMN, isInternalTable, typesOfComment } from "../tables/Layout.js"
import { aliasColumns } from "../tables/SchemalessTables.js"
import { referencesOf } from "./HintsReferences.js"

export const CACHE_TTL_MS = 5_000
const CACHE_MAX_TABLES = 1_000

const NUMERIC = /^(U?Int(8|16|32|64|128|256)|Float(32|64)|Decimal.*)$/

/** Path → the types it has held, for the columns of one table that hold several. */
type Mixed = ReadonlyMap<string, ReadonlyArray<string>>

const listed = (types: ReadonlyArray<string>) =>
  types.length <= 2
    ? types.join(" and ")
    : `${types.slice(0, -1).join(", ")} and ${types[types.length - 1]!}`

/** The sentence for one mixed field; the rules are `Layout.aliasExpression`'s. */
export const hintFor = (path: string, types: ReadonlyArray<string>): string => {
  const holds = `${path} holds ${listed(types)} values`
  const originals = `The original values are in ${RAW_COLUMN}.${path}.`
  const others = types.filter((type) => !NUMERIC.test(type))
  if (others.length === types.length) {
    return `${holds}; in this query they are all read as text (String). ${originals}`
  }
  if (others.length === 0) {
    return `${holds}; in this query they are all read as Float64. ${originals}`
  }
  return (
    `${holds}; in this query the ${listed(others)} values count as NULL unless they ` +
    `spell a number (skipped by sum/avg/min/max and comparisons). ${originals}`
  )
}

export interface HintsRequest {
  readonly engine: AnalyticalEngine
  readonly clusterId: ClusterId
  /** The selected (logical) database and its engine name. */
  readonly database: string
  readonly engineDatabase: string
  readonly sql: string
}

/** Builds the hints of queries, with a per-table cache of mixed columns. */
export const makeHints = () => {
  const cache = new Map<string, { readonly at: number; readonly mixed: Mixed }>()

  const mixedOf = (request: HintsRequest, table: string) =>
    Effect.gen(function* () {
      const key = JSON.stringify([request.clusterId, request.engineDatabase, table])
      const now = Date.now()
      const hit = cache.get(key)
      if (hit !== undefined && now - hit.at < CACHE_TTL_MS) return hit.mixed
      const columns = yield* aliasColumns(request.engine, request.engineDatabase, table)
      const mixed: Mixed = new Map(
        columns
          .map((column) => [column.name, typesOfComment(column.comment)] as const)
          .filter(([, types]) => types.length > 1)
      )
      if (cache.size >= CACHE_MAX_TABLES) cache.clear()
      cache.set(key, { at: now, mixed })
      return mixed
    })

  // Untraced: on every query, and usually answered from the cache.
  return Effect.fnUntraced(
    function* (request: HintsRequest) {
      const references = referencesOf(request.sql)
      // Only tables of the selected database: the key may not be entitled to others' types.
      const tables = [
        ...new Set(
          references.tables
            .filter((ref) => ref.database === undefined || ref.database === request.database)
            .map((ref) => ref.table)
            .filter((table) => !isInternalTable(table))
        )
      ]
      if (tables.length === 0) return []
      const found = yield* Effect.forEach(tables, (table) => mixedOf(request, table))
      const hints = new Map<string, string>()
      for (const mixed of found) {
        for (const [path, types] of mixed) {
          if (references.star || references.names.has(path)) hints.set(path, hintFor(path, types))
        }
      }
      return [...hints.keys()].sort().map((path) => hints.get(path)!)
    },
    Effect.orElseSucceed((): ReadonlyArray<string> => [])
  )
}

export type QueryHints = ReturnType<typeof makeHints>

export const HINTS_HEADER = "x-service-hints"
const HEADER_MAX_BYTES = 4_096

/**
 * The hints as one header value: a JSON array, non-ASCII escaped so it is a valid header.
 * Past `HEADER_MAX_BYTES` the last entry says how many were left out.
 */
export const hintsHeader = (hints: ReadonlyArray<string>): string => {
  const encode = (list: ReadonlyArray<string>) =>
    JSON.stringify(list).replace(
      /[^\x20-\x7e]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
    )
  let kept = hints.length
  let value = encode(hints)
  while (value.length > HEADER_MAX_BYTES && kept > 0) {
    kept--
    value = encode([
      ...hints.slice(0, kept),
      `${hints.length - kept} more fields hold several types; use format JSON to see all hints.`
    ])
  }
  return value
}
