import { quoteIdentifier, quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"
import {
  EVENT_COLUMNS,
  EVENT_INSERT_FORMAT,
  EVENT_INSERT_SETTINGS,
  EVENT_ORDER_BY,
  eventColumnsSql
} from "./EventsLayout.js"
/**
 * How a schemaless table is stored in the engine. The query path
 * relies on this layout:
 *
 * - A table is `CREATE TABLE db.t (__raw JSON EPHEMERAL, __raw_data JSON MATERIALIZED
 *   __raw) ENGINE = MergeTree ORDER BY tuple() COMMENT '{"created_at":…}'`. Inserts
 *   send raw bytes as `INSERT INTO db.t (__raw) FORMAT JSONAsObject`; the engine parses
 *   them (nothing parses JSON in JavaScript). `__raw_data` being MATERIALIZED keeps it
 *   out of `SELECT *`; it stays queryable by name. The table also has two constraints
 *   (the length of a path, and that every path and type already has its column) and the
 *   `Join` table of its known paths (below).
 * - Every leaf path of the stored records has an ALIAS column named by its dotted path
 *   (`request.client.geo.country`), so bare dotted names work in SQL. Its `COMMENT` lists
 *   every engine type the path has held (`Int64,String`), so a query can tell a mixed
 *   column (more than one type) and add a hint. The alias expression:
 *   - one type T → the typed subcolumn `__raw_data.p.:T` (exact: Int64 stays Int64,
 *     ISO date-times are `DateTime` / `DateTime64(9)`);
 *   - several types including a number → `accurateCastOrNull(__raw_data.p, 'Float64')`:
 *     sum/avg/min/max, comparisons and GROUP BY work; values that are not numbers are
 *     NULL there (skipped), and still readable in `__raw_data.p`;
 *   - several types, none a number → the values as text (`Nullable(String)`).
 * - `SELECT *` lists ALIAS columns only with `asterisk_include_alias_columns=1`: the
 *   query path sends `QUERY_SETTINGS`.
 * - Engine database names come from `src/databases/EngineDatabase.ts` (the one mapping).
 * - Tables whose name starts with `__` are the service's own (staging tables of inserts
 *   in flight, the insert-token table); table names never start with `_`.
 * - On a ClickHouse cluster (`SLUICE_CLICKHOUSE_CLUSTER`, src/engine/TableDdl.ts) `db.t`
 *   is a `Distributed` table over `db.__local_t` on every node, carrying the
 *   constraints, and inserts name `__raw_data` itself (`insertShape`).
 */
export const RAW_INPUT = "__raw"
export const RAW_COLUMN = "__raw_data"
export const INSERT_FORMAT = "JSONAsObject"
export const TOKENS_TABLE = "__sluice_insert_tokens"
export const STAGING_PREFIX = "__staging_"

/** Settings every query over schemaless tables needs (send them with each query). */
export const QUERY_SETTINGS = {
  asterisk_include_alias_columns: 1,
  allow_suspicious_types_in_group_by: 1,
  allow_suspicious_types_in_order_by: 1
} as const

/** What the names of tables the service keeps for itself start with; never listed. */
export const INTERNAL_TABLE_PREFIX = "__"

export const isInternalTable = (name: string) => name.startsWith(INTERNAL_TABLE_PREFIX)

export const qualified = (database: string, table: string) =>
  `${quoteIdentifier(database)}.${quoteIdentifier(table)}`

/**
 * `records`: the schemaless layout above; `events`: the same with typed event columns
 * first, ordered by time (EventsLayout.ts). A table keeps the layout it was created with.
 */
export type TableLayout = "records" | "events"

/** The longest leaf path (in bytes, dots included) a record may hold: it becomes a column name. */
export const MAX_PATH_BYTES = 1024

/**
 * Refuses, inside the insert, a record with a longer path, so a refused body leaves
 * nothing behind (the engine checks constraints before it writes a part).
 */
export const PATH_LENGTH_CONSTRAINT = "__path_length"
const pathLengthCheck =
  `CHECK arrayAll(p -> length(p) <= ${MAX_PATH_BYTES}, ` +
  `JSONAllPaths(${quoteIdentifier(RAW_COLUMN)}))`

/**
 * The (path, type) pairs the table has columns for, in a `Join` table of its own, and a
 * constraint that refuses a row holding any other: an insert of known paths only needs no
 * more than its own statement, and one bringing a new path or type is refused before the
 * engine writes anything, to go the way that adds columns first (BodyInsert). The check
 * costs an insert little. A `Join` read by `joinGetOrNull`, not a `Set` read by `IN`:
 * the table definition keeps `IN db.set` as `IN (db.set)`, which after a restart names
 * a column, not the set.
 */
export const KNOWN_PATHS_CONSTRAINT = "__known_paths"
export const knownPathsTable = (table: string) => `__paths_${table}`

const knownPathsDefinition = (database: string, table: string): TableDdl.TableDefinition => ({
  database,
  table: knownPathsTable(table),
  columns: "path String, type String, known UInt8",
  engine: "Join",
  parameters: "ANY, LEFT, path, type"
})

export const createKnownPathsSql = (database: string, table: string) =>
  TableDdl.createTable(TableDdl.SINGLE_SERVER, knownPathsDefinition(database, table))[0]!

export const rememberPathsSql = (
  database: string,
  table: string,
  pairs: ReadonlyArray<readonly [path: string, type: string]>
) =>
  `INSERT INTO ${qualified(database, knownPathsTable(table))} (path, type, known) VALUES ` +
  pairs.map(([path, type]) => `(${quoteString(path)}, ${quoteString(type)}, 1)`).join(", ")

const pathLengthConstraint = `CONSTRAINT ${quoteIdentifier(PATH_LENGTH_CONSTRAINT)} ${pathLengthCheck}`

const knownPathsCheck = (database: string, table: string) =>
  "CHECK " +
  `mapAll((p, t) -> isNotNull(joinGetOrNull(${quoteString(`${database}.${knownPathsTable(table)}`)}, 'known', p, t)), ` +
  `JSONAllPathsWithTypes(${quoteIdentifier(RAW_COLUMN)}))`

/**
 * The constraints of a table (its staging tables have only the length check, since
 * their rows bring new paths by design); a table made before them gets them at its
 * first insert in a process.
 */
export const addConstraintsSql = (database: string, table: string) =>
  TableDdl.alterTable(
    database,
    table,
    `ADD CONSTRAINT IF NOT EXISTS ${quoteIdentifier(PATH_LENGTH_CONSTRAINT)} ${pathLengthCheck}, ` +
      `ADD CONSTRAINT IF NOT EXISTS ${quoteIdentifier(KNOWN_PATHS_CONSTRAINT)} ${knownPathsCheck(database, table)}`
  )

const tableDefinition = (
  database: string,
  table: string,
  createdAt: string,
  layout: TableLayout,
  settings: string | undefined
): TableDdl.TableDefinition => ({
  database,
  table,
  columns:
    `${quoteIdentifier(RAW_INPUT)} JSON EPHEMERAL, ${quoteIdentifier(RAW_COLUMN)} JSON MATERIALIZED ${quoteIdentifier(RAW_INPUT)}` +
    (layout === "events" ? `, ${eventColumnsSql}` : ""),
  constraints: pathLengthConstraint,
  engine: "MergeTree",
  orderBy: layout === "events" ? EVENT_ORDER_BY : "tuple()",
  ...(settings === undefined ? {} : { settings }),
  comment: JSON.stringify({ created_at: createdAt }),
  // The record itself, not `rand()`: a retried body (an insert token's) splits over the
  // shards as it did the first time, so each shard's deduplication sees its own rows again.
  shardBy: `cityHash64(toString(${quoteIdentifier(RAW_COLUMN)}))`
})

/**
 * The table on one server; a staging table (its settings given) on the node sluice writes
 * through whatever the topology: it lives for one insert, whose statements all go there,
 * and `ON CLUSTER` would put each insert behind the cluster's DDL queue and every node
 * being up (StagedInsert.ts).
 */
export const createTableSql = (
  database: string,
  table: string,
  createdAt: string,
  layout: TableLayout = "records",
  /** The table's settings, `name = value, …`. */
  settings?: string
) =>
  TableDdl.createTable(
    TableDdl.SINGLE_SERVER,
    tableDefinition(database, table, createdAt, layout, settings)
  )[0]!

/**
 * A table, its known-paths table and its constraints, in order. On a cluster the
 * constraints are written with the `Distributed` table (which takes no `ADD CONSTRAINT`),
 * and checked on the node an insert arrives at, against that node's known paths.
 */
export const createTableStatements = (
  topology: TableDdl.Topology,
  database: string,
  table: string,
  createdAt: string,
  layout: TableLayout = "records"
): ReadonlyArray<string> => {
  const definition = tableDefinition(database, table, createdAt, layout, undefined)
  if (!TableDdl.isCluster(topology)) {
    return [
      ...TableDdl.createTable(topology, definition),
      createKnownPathsSql(database, table),
      addConstraintsSql(database, table)
    ]
  }
  return [
    ...TableDdl.createTable(topology, knownPathsDefinition(database, table)),
    ...TableDdl.createTable(topology, {
      ...definition,
      constraints: `${pathLengthConstraint}, CONSTRAINT ${quoteIdentifier(KNOWN_PATHS_CONSTRAINT)} ${knownPathsCheck(database, table)}`
    })
  ]
}

/**
 * Settings of an insert that names `__raw_data` itself. On a cluster rows do: a
 * `Distributed` table wrote nothing of a body sent to its ephemeral `__raw` (ClickHouse
 * 26.7, and no error; test/engine/clusterTablesOnServer.test.ts).
 */
export const STORED_RAW_SETTINGS = { insert_allow_materialized_columns: 1 } as const

/** How rows of a layout are sent: the format, the columns named and the settings it needs. */
export const insertShape = (
  layout: TableLayout,
  topology: TableDdl.Topology = TableDdl.SINGLE_SERVER
) => {
  const cluster = TableDdl.isCluster(topology)
  const raw = cluster ? RAW_COLUMN : RAW_INPUT
  const settings = cluster ? STORED_RAW_SETTINGS : {}
  return layout === "events"
    ? {
        format: EVENT_INSERT_FORMAT,
        columns: [...EVENT_COLUMNS.map(([name]) => name), raw],
        settings: { ...EVENT_INSERT_SETTINGS, ...settings }
      }
    : { format: INSERT_FORMAT, columns: [raw], settings }
}

/** Reads `created_at` back from a table comment written by `createTableSql`. */
export const createdAtOf = (comment: string): string => {
  try {
    const parsed: unknown = JSON.parse(comment)
    if (typeof parsed === "object" && parsed !== null && "created_at" in parsed) {
      return String(parsed.created_at)
    }
  } catch {
    // Tables made outside the service carry other comments.
  }
  return ""
}

const NUMERIC = /^(U?Int(8|16|32|64|128|256)|Float(32|64)|Decimal.*)$/

/** `__raw_data.a.b` with each segment quoted, for a path as the engine lists it. */
const pathExpression = (path: string) =>
  [RAW_COLUMN, ...path.split(".")].map(quoteIdentifier).join(".")

/** The alias expression for a path that has held `types` (see the header). */
export const aliasExpression = (path: string, types: ReadonlyArray<string>): string => {
  const value = pathExpression(path)
  if (types.length === 1) return `${value}.:${quoteIdentifier(types[0]!)}`
  if (types.some((type) => NUMERIC.test(type))) {
    return `accurateCastOrNull(${value}, 'Float64')`
  }
  return `if(isNull(${value}), NULL, toString(${value}))`
}

/** The type list kept in an alias column's comment. */
export const typesComment = (types: ReadonlyArray<string>) => JSON.stringify([...types].sort())

export const typesOfComment = (comment: string): ReadonlyArray<string> => {
  try {
    const parsed: unknown = JSON.parse(comment)
    return Array.isArray(parsed) ? parsed.map(String) : []
  } catch {
    return []
  }
}

/** Paths users cannot have as columns (they name the raw storage). */
export const isReservedPath = (path: string) => path === RAW_INPUT || path === RAW_COLUMN
