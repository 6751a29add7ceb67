/**
 * Keeps a table's ALIAS columns in step with the leaf paths its records hold: the paths
 * of a staging table (an insert not yet visible) are merged into the target's columns
 * before its rows are moved in, so they are queryable the moment they appear; the
 * table's known-paths table follows its columns.
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { MalformedRecords } from "../../domain/Errors.js"
import * as EngineSql from "./EngineSql.js"
import * as Layout from "./Layout.js"
import { aliasColumns } from "./SchemalessTables.js"
import { quoteIdentifier, quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"

/** Path → the engine types its values had. */
export type FoundPaths = Readonly<Record<string, ReadonlyArray<string>>>

const PathsRow = Schema.Struct({
  paths: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) })
})

const DescribeRow = Schema.Struct({ name: Schema.String, type: Schema.String })

interface Change {
  readonly path: string
  readonly types: ReadonlyArray<string>
  readonly exists: boolean
}

const changesOf = (
  found: FoundPaths,
  existing: ReadonlyMap<string, ReadonlyArray<string>>
): Array<Change> =>
  Object.entries(found).flatMap(([path, types]): Array<Change> => {
    if (Layout.isReservedPath(path)) return []
    const before = existing.get(path)
    const merged = [...new Set([...(before ?? []), ...types])].sort()
    if (before !== undefined && merged.length === before.length) return []
    return [{ path, types: merged, exists: before !== undefined }]
  })

const NOTHING_INSERTED = "Nothing was inserted."

/**
 * Why no column can be made for a path of `found`, naming the key: a column is named by
 * its dotted path, so an empty key (or a key whose dots leave an empty part) has no
 * name, and the top-level keys `__raw` and `__raw_data` are where the table keeps each
 * record whole. The staged rows are dropped with the refusal: nothing of the body is kept.
 */
export const unusablePath = (found: FoundPaths): MalformedRecords | undefined => {
  for (const path of Object.keys(found)) {
    const top = path.split(".")[0]!
    if (top === Layout.RAW_INPUT || top === Layout.RAW_COLUMN) {
      return new MalformedRecords({
        message: `A record has the key '${top}', which is reserved: each table keeps its records whole under '${Layout.RAW_INPUT}' and '${Layout.RAW_COLUMN}'.`,
        hint: `Rename the key '${top}' in your records. ${NOTHING_INSERTED}`
      })
    }
    if (path.split(".").includes("")) {
      return new MalformedRecords({
        message: `A record has a key that is empty or has an empty part: its path is '${path}' (nested keys joined by dots).`,
        hint: `Every key must be a non-empty name, and a key with dots may neither start nor end with one nor hold two in a row. ${NOTHING_INSERTED}`
      })
    }
  }
  return undefined
}

/** Whether `found` holds a path, or a type of a path, that `known` lacks. */
export const addsPaths = (found: FoundPaths, known: ReadonlyMap<string, ReadonlyArray<string>>) =>
  changesOf(found, known).length > 0

/** The leaf paths and types of the records in `staging` (an insert not yet visible). */
export const stagingPaths = (engine: AnalyticalEngine, database: string, staging: string) =>
  Effect.map(
    EngineSql.rows(
      engine,
      PathsRow,
      `SELECT distinctJSONPathsAndTypes(${quoteIdentifier(Layout.RAW_COLUMN)}) AS paths ` +
        `FROM ${Layout.qualified(database, staging)}`
    ),
    (found) => found[0]?.paths ?? {}
  )

/**
 * Records `known` (the table's columns) in its known-paths table, so inserts of these
 * paths and types pass its constraint. All of them each time: the `Join` keeps each once,
 * and a pair lost (a crash between a column and its record) comes back.
 */
export const rememberPaths = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  known: ReadonlyMap<string, ReadonlyArray<string>>
) => {
  const pairs = [...known].flatMap(([path, types]) => types.map((type) => [path, type] as const))
  return pairs.length === 0
    ? Effect.void
    : EngineSql.command(engine, Layout.rememberPathsSql(database, table, pairs))
}

/** The ALIAS columns of `table` as path → types. */
export const knownPaths = (engine: AnalyticalEngine, database: string, table: string) =>
  Effect.map(
    aliasColumns(engine, database, table),
    (columns) => new Map(columns.map((c) => [c.name, Layout.typesOfComment(c.comment)]))
  )

/**
 * Adds or widens the ALIAS columns of `table` for `found`, and records them in `known`.
 * The types are asked of the table itself: an alias expression's type depends on the
 * JSON column's declaration only, never on the rows.
 */
export const mergePaths = (
  engine: AnalyticalEngine,
  database: string,
  table: string,
  found: FoundPaths,
  known: Map<string, ReadonlyArray<string>>
) =>
  Effect.gen(function* () {
    const changes = changesOf(found, known)
    if (changes.length === 0) return false
    const expressions = changes.map((c) => Layout.aliasExpression(c.path, c.types))
    const described = yield* EngineSql.rows(
      engine,
      DescribeRow,
      `DESCRIBE (SELECT ${expressions.map((e, i) => `${e} AS c${i}`).join(", ")} ` +
        `FROM ${Layout.qualified(database, table)})`
    )
    const clauses = changes.map((change, i) => {
      const type = described[i]?.type ?? "Dynamic"
      const verb = change.exists ? "MODIFY COLUMN" : "ADD COLUMN IF NOT EXISTS"
      return (
        `${verb} ${quoteIdentifier(change.path)} ${type} ALIAS ${expressions[i]} ` +
        `COMMENT ${quoteString(Layout.typesComment(change.types))}`
      )
    })
    yield* EngineSql.commands(
      engine,
      TableDdl.alterColumns(engine, database, table, clauses.join(", "))
    )
    for (const change of changes) known.set(change.path, change.types)
    // Whether a field now holds more than one type (what query hints are about).
    return changes.some((change) => change.types.length > 1)
  })
