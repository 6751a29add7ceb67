/**
 * `Tables` on the cluster's engine: the schemaless tables' own listing and description,
 * and a drop that waits for the table's inserts (`TableLocks`) and forgets its tokens.
 */
import { Effect, Layer, Option } from "effect"
import type { TableDescription, TableSummary } from "../../domain/api/TablesApi.js"
import type { ClusterScope } from "../../domain/Authorization.js"
import { Engines } from "../../domain/Engine.js"
import { NotFound } from "../../domain/Errors.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import { Tables } from "../../domain/Tables.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import * as InsertTokens from "./InsertTokens.js"
import { SchemalessTables } from "./SchemalessTables.js"
import { TableLocks } from "./TableLocks.js"

const unknownTable = (table: string, database: string, existing: ReadonlyArray<string>) =>
  new NotFound({
    message: `Table '${table}' not found in database '${database}'.`,
    hint:
      existing.length === 0
        ? "The database has no tables yet; POST records to /v1/tables/{table} to create one."
        : `Tables in '${database}': ${existing.join(", ")}.`
  })

export const TablesLive = Layer.effect(
  Tables,
  Effect.gen(function* () {
    const engines = yield* Engines
    const tables = yield* SchemalessTables
    const locks = yield* TableLocks

    /** The cluster's engine and the database's name in it. */
    const where = (scope: ClusterScope, database: DatabaseName) =>
      Effect.map(
        Effect.mapError(engines.forCluster(scope.clusterId), engineAccessError),
        (engine) => ({ engine, name: engineDatabase(engine, database) })
      )

    const describe = Effect.fn("Tables.describe")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName
    ) {
      const { engine, name } = yield* where(scope, database)
      const found = yield* Effect.orDie(tables.describe(engine, name, table))
      if (Option.isSome(found)) return found.value satisfies TableDescription
      const all = yield* Effect.orDie(tables.list(engine, name))
      return yield* unknownTable(
        table,
        database,
        all.map((t) => t.name)
      )
    })

    return Tables.of({
      list: Effect.fn("Tables.list")(function* (scope, database) {
        const { engine, name } = yield* where(scope, database)
        const all: ReadonlyArray<TableSummary> = yield* Effect.orDie(tables.list(engine, name))
        return all
      }),
      describe,
      drop: Effect.fn("Tables.drop")(function* (scope, database, table) {
        yield* describe(scope, database, table)
        const { engine, name } = yield* where(scope, database)
        yield* locks.withTable(
          name,
          table
        )(
          Effect.orDie(
            Effect.zipRight(
              tables.drop(engine, name, table),
              InsertTokens.forget(engine, name, table)
            )
          )
        )
      })
    })
  })
)
