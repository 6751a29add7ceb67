/**
 * The tables of a cluster's database, as their owner manages them: list them with their
 * sizes, describe one with every column a query can name, drop one with its data. Rows
 * go in through `IngestWriter`; a table is created by its first insert.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { TableDescription, TableSummary } from "./api/TablesApi.js"
import type { ClusterScope } from "./Authorization.js"
import type { ClusterPaused, NotFound, Unavailable } from "./Errors.js"
import type { DatabaseName, TableName } from "./Ids.js"

export class Tables extends Context.Tag("sluice/Tables")<
  Tables,
  {
    /** The database's tables (sluice's own bookkeeping tables left out). */
    readonly list: (
      scope: ClusterScope,
      database: DatabaseName
    ) => Effect.Effect<ReadonlyArray<TableSummary>, ClusterPaused | Unavailable>
    /** `NotFound` names the tables the database has. */
    readonly describe: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName
    ) => Effect.Effect<TableDescription, NotFound | ClusterPaused | Unavailable>
    /**
     * Drops the table and its data, waiting for inserts into it to end; its insert
     * tokens are forgotten, so a table of the same name starts afresh.
     */
    readonly drop: (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName
    ) => Effect.Effect<void, NotFound | ClusterPaused | Unavailable>
  }
>() {}
