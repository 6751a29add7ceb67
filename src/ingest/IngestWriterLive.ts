/**
 * `IngestWriter` on the cluster engines: records, flattened rows and events go through
 * the body insert (a private staging table, published in one step), OTLP exports into the
 * exporter's typed tables. The cluster's engine is found per write.
 */
import { Effect, Layer } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import { Engines } from "../../domain/Engine.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import type { Records } from "../../domain/IngestWriter.js"
import type { OtlpExport } from "../../domain/OtlpModel.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { OtlpTransforms } from "../../domain/OtlpTransforms.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { engineDatabase } from "../databases/EngineDatabase.js"
import { insertExport } from "../otlp/OtlpIngest.js"
import { SchemalessTables } from "../tables/SchemalessTables.js"
import { TableEvents } from "../tables/TableEvents.js"
import { TableLocks } from "../tables/TableLocks.js"
import * as BodyInsert from "./BodyInsert.js"
import * as BodyInsertRequest from "./BodyInsertRequest.js"
import { eventChunks } from "./EventRows.js"
import { rowsToken } from "./RowsBody.js"

export const IngestWriterLive = Layer.effect(
  IngestWriter,
  Effect.gen(function* () {
    const engines = yield* Engines
    const transforms = yield* OtlpTransforms
    const dependencies = {
      tables: yield* SchemalessTables,
      locks: yield* TableLocks,
      events: yield* TableEvents
    }

    const target = (scope: ClusterScope, database: DatabaseName) =>
      engines.forCluster(scope.clusterId).pipe(
        Effect.mapError(engineAccessError),
        Effect.map((engine) => ({ engine, database: engineDatabase(engine, database) }))
      )

    const insertRecords = Effect.fn("IngestWriter.insertRecords")(function* <E>(
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      records: Records<E>
    ) {
      const where = yield* target(scope, database)
      const inserted = yield* BodyInsert.insertBody(dependencies, {
        ...where,
        table,
        body: records.bytes,
        lines: records.format === "ndjson",
        token: records.token,
        layout: "records"
      })
      return { inserted }
    })

    const insertRows = Effect.fn("IngestWriter.insertRows")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      rows: ReadonlyArray<string>,
      token: string | undefined
    ) {
      const where = yield* target(scope, database)
      if (rows.length === 0) return { inserted: 0 }
      const inserted = yield* BodyInsert.insertRows(
        dependencies,
        { ...where, table, token: rowsToken(rows, token), layout: "records" },
        rows
      )
      return { inserted }
    })

    // The events are encoded when the insert is asked for, and the insert holds only their
    // bytes: events held while the engine works (most of a request's time) survived the
    // young generation's collections, which copied them, promoted them and later swept
    // them again.
    const insertEvents = (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      events: ReadonlyArray<SplEvent>
    ) => {
      const count = events.length
      const chunks = [...eventChunks(events)]
      return Effect.gen(function* () {
        const where = yield* target(scope, database)
        if (count === 0) return { inserted: 0 }
        const inserted = yield* BodyInsert.insertRowChunks(
          dependencies,
          { ...where, table, token: undefined, layout: "events" },
          () => chunks.values(),
          count
        )
        return { inserted }
      }).pipe(
        // The collector's table is made in the events layout; one of another layout under
        // its name is not the sender's to fix.
        Effect.catchTag("BadRequest", (error) => Effect.die(error)),
        Effect.withSpan("IngestWriter.insertEvents")
      )
    }

    const tableKind = Effect.fn("IngestWriter.tableKind")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName
    ) {
      const where = yield* target(scope, database)
      return yield* BodyInsertRequest.tableKind(dependencies, where.engine, where.database, table)
    })

    const insertOtlp = Effect.fn("IngestWriter.insertExport")(function* (
      scope: ClusterScope,
      database: DatabaseName,
      table: TableName,
      request: OtlpExport
    ) {
      const where = yield* target(scope, database)
      return yield* insertExport(transforms, where.engine, where.database, table, request)
    })

    return IngestWriter.of({
      insertRecords,
      insertRows,
      insertEvents,
      tableKind,
      insertExport: insertOtlp
    })
  })
)
