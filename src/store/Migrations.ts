/**
 * The control-plane schema, applied at start by `@effect/sql`'s migrator (progress kept in
 * the `effect_sql_migrations` table) for the embedded and the external PostgreSQL alike.
 */
import * as Migrator from "@effect/sql/Migrator"
import { Effect, Layer } from "effect"
import controlPlane from "./migrations/0001_control_plane.js"
import requestLogs from "./migrations/0002_request_logs.js"
import clusterMetrics from "./migrations/0003_cluster_metrics.js"
import savedSearchNames from "./migrations/0005_saved_search_names.js"

/**
 * Every migration, by `<id>_<name>`. A migration that has shipped is never edited: later
 * changes (new tables, columns, indexes) come as NEW entries with the next id, because
 * existing data dirs have already recorded and will never re-run the old ones.
 * An explicit record, not a glob, so it works under tsx and vitest with no build step.
 */
export const migrations = {
  "0001_control_plane": controlPlane,
  "0002_request_logs": requestLogs,
  "0003_cluster_metrics": clusterMetrics,
  "0005_saved_search_names": savedSearchNames
}

// The generic migrator: `PgMigrator` only adds pg_dump schema dumps, which would pull in
// a command executor and a file system this service has no use for.
const migrate = Migrator.make({})

/** Applies the migrations not yet recorded; returns those it ran as `[id, name]`. */
export const run = migrate({ loader: Migrator.fromRecord(migrations) }).pipe(
  Effect.orDie,
  Effect.withSpan("ControlPlane.migrate")
)

/** Ready once the schema is current. */
export const layer = Layer.effectDiscard(run)
