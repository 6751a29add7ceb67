/**
 * The `hints` of a query result: one sentence per referenced field that has held more
 * than one type, saying how its values count in the query and where
 * the originals are. Column types come from the ALIAS columns' comments (`Layout.ts`).
 *
 * Each table's mixed columns are cached, and dropped when the tables publish a change
 * (`TableEvents`: an insert gave a field a new type, or the table was dropped); the TTL
 * bounds what another process's inserts may leave unhinted. A failed lookup yields no
 * hints rather than a failed query.
 */
import { Duration, Effect } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { RAW_COLUMN, isInternalTable, typesOfComment } from "../tables/Layout.js"
import * as TtlCache from "../cache/TtlCache.js"
import { aliasColumns } from "../tables/SchemalessTables.js"
import { TableEvents } from "../tables/TableEvents.js"
import type { References } from "./HintsReferences.js"

const CACHE_TTL = Duration.seconds(5)
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
  /** What the statement refers to (`ParsedStatement.references`). */
  readonly references: References
}

interface TableRef {
  readonly request: HintsRequest
  readonly table: string
}

/** Builds the hints of queries, with a per-table cache of mixed columns. */
export const makeHints = Effect.gen(function* () {
  const cache = TtlCache.make({
    ttl: CACHE_TTL,
    capacity: CACHE_MAX_TABLES,
    keyOf: ({ request, table }: TableRef) =>
      `${request.clusterId}\u0000${request.engineDatabase}\u0000${table}`,
    lookup: ({ request, table }: TableRef) =>
      Effect.map(aliasColumns(request.engine, request.engineDatabase, table), (columns) => {
        const mixed: Mixed = new Map(
          columns
            .map((column) => [column.name, typesOfComment(column.comment)] as const)
            .filter(([, types]) => types.length > 1)
        )
        return mixed
      })
  })
  // Rare (a field's type changes once), so every table is looked at again.
  yield* Effect.flatMap(TableEvents, (events) => events.subscribe(() => cache.invalidateAll))
  const mixedOf = (request: HintsRequest, table: string) => cache.get({ request, table })

  // Untraced: on every query, and usually answered from the cache.
  return Effect.fnUntraced(
    function* (request: HintsRequest) {
      const references = request.references
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
})

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
