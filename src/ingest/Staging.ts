/**
 * The staging table of one insert: taken from the idle pool or created, and afterwards,
 * in the background, emptied and returned to the pool when its rows were attached to
 * the table, else dropped. Emptying it waits for nothing the caller needs: its rows are
 * already in the table, and an unreturned table is only one less in the pool.
 * A pooled table is used without a statement; it is gone only if its database was
 * dropped since, which the first insert into it finds out (`created` false): it then
 * creates the table and tries again.
 * The first insert into a database in this process also drops staging tables that a
 * previous process of this node left behind (TableLocks names them per node), and those
 * of releases before staging tables were named per node.
 * On a ClickHouse cluster too, a staging table is a plain table of the node sluice writes
 * through (Layout.createTableSql): its statements carry no `ON CLUSTER`.
 */
import { Effect, Schema } from "effect"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import * as EngineSql from "../tables/EngineSql.js"
import * as Layout from "../tables/Layout.js"
import type { TableLocks } from "../tables/TableLocks.js"
import { quoteString } from "../engine/Sql.js"
import * as TableDdl from "../engine/TableDdl.js"

const StagingRow = Schema.Struct({ name: Schema.String })

/**
 * A staging table holds one insert's chunks for moments: it never merges them (no part
 * is small enough to be merged), so a token-carrying body copied out of it is read in
 * the same blocks on a retry (StagedInsert.ts).
 */
const NEVER_MERGED =
  "max_bytes_to_merge_at_max_space_in_pool = 1, max_bytes_to_merge_at_min_space_in_pool = 1"

export const acquireStaging = (
  engine: AnalyticalEngine,
  database: string,
  locks: TableLocks,
  layout: Layout.TableLayout,
  moved: () => boolean
) =>
  Effect.gen(function* () {
    const drop = (name: string) =>
      EngineSql.commands(
        engine,
        TableDdl.dropTable(TableDdl.SINGLE_SERVER, database, name, false)
      ).pipe(
        Effect.zipRight(Effect.sync(() => locks.droppedStaging(database, name))),
        Effect.ignore
      )
    const create = (name: string) =>
      Effect.orDie(
        EngineSql.command(engine, Layout.createTableSql(database, name, "", layout, NEVER_MERGED))
      )
    const acquired = yield* Effect.acquireRelease(
      Effect.suspend(() => {
        const pooled = locks.takeStaging(database, layout)
        if (pooled !== undefined) return Effect.succeed({ name: pooled, created: false })
        const name = locks.newStaging(database)
        return Effect.as(create(name), { name, created: true })
      }),
      ({ name }) =>
        Effect.asVoid(
          Effect.forkDaemon(
            moved()
              ? EngineSql.command(engine, TableDdl.truncateTable(database, name)).pipe(
                  Effect.flatMap(() =>
                    locks.returnStaging(database, layout, name) ? Effect.void : drop(name)
                  ),
                  Effect.catchAll(() => drop(name))
                )
              : drop(name)
          )
        )
    )
    if (locks.firstSweep(database)) {
      const leftovers = EngineSql.rows(
        engine,
        StagingRow,
        `SELECT name FROM system.tables WHERE database = ${quoteString(database)} ` +
          `AND (startsWith(name, ${quoteString(locks.stagingPrefix)}) ` +
          `OR match(name, ${quoteString(`^${Layout.STAGING_PREFIX}[0-9a-f]{32}$`)}))`
      )
      yield* Effect.forkDaemon(
        leftovers.pipe(
          Effect.flatMap((rows) =>
            Effect.forEach(
              rows.filter((row) => !locks.isOurStaging(database, row.name)),
              (row) => drop(row.name),
              { discard: true }
            )
          ),
          Effect.ignore
        )
      )
    }
    return { ...acquired, create: create(acquired.name) }
  })
