/**
 * The control-plane schema, applied at start by `@effect/sql`'s migrator (progress kept in
 * the `effect_sql_migrations` table) for the embedded and the external PostgreSQL alike.
 */
import { SqlClient } from "@effect/sql"
import * as Migrator from "@effect/sql/Migrator"
import { Effect, Layer } from "effect"
import controlPlane from "./migrations/0001_control_plane.js"
import requestLogs from "./migrations/0002_request_logs.js"
import clusterMetrics from "./migrations/0003_cluster_metrics.js"
import requestLogFields from "./migrations/0004_request_log_fields.js"
import savedSearchNames from "./migrations/0005_saved_search_names.js"
import serviceSecrets from "./migrations/0009_service_secrets.js"
import sessionRevocation from "./migrations/0010_session_revocation.js"
import organizationCreators from "./migrations/0011_organization_creators.js"
import organizationExternalIds from "./migrations/0012_organization_external_ids.js"
import invitations from "./migrations/0013_invitations.js"
import databaseStorage from "./migrations/0014_database_storage.js"
import deviceLoginsAndAttempts from "./migrations/0015_device_logins_and_attempts.js"
import clusterActivity from "./migrations/0016_cluster_activity.js"
import deviceLoginSoftware from "./migrations/0017_device_login_software.js"

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
  "0004_request_log_fields": requestLogFields,
  "0005_saved_search_names": savedSearchNames,
  "0009_service_secrets": serviceSecrets,
  "0010_session_revocation": sessionRevocation,
  "0011_organization_creators": organizationCreators,
  "0012_organization_external_ids": organizationExternalIds,
  "0013_invitations": invitations,
  "0014_database_storage": databaseStorage,
  "0015_device_logins_and_attempts": deviceLoginsAndAttempts,
  "0016_cluster_activity": clusterActivity,
  "0017_device_login_software": deviceLoginSoftware
}

// The generic migrator: `PgMigrator` only adds pg_dump schema dumps, which would pull in
// a command executor and a file system this service has no use for.
const migrate = Migrator.make({})

/** Any constant of our own: the advisory lock that serialises creating the progress table. */
const migrationLock = 0x51_1c_e0

/**
 * The migrator's progress table, created under a lock. Several processes may start
 * together against one external PostgreSQL, and the migrator checks for its table and
 * creates it before taking its own table lock, so two first starts race on the create.
 * Same columns as the migrator's own `CREATE TABLE`; from here on its table lock
 * serialises the migrations themselves.
 */
const progressTable = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql.withTransaction(
    Effect.zipRight(
      sql`SELECT pg_advisory_xact_lock(${migrationLock})`,
      sql`CREATE TABLE IF NOT EXISTS effect_sql_migrations (
        migration_id integer primary key,
        created_at timestamp with time zone not null default now(),
        name text not null
      )`
    )
  )
)

/** Applies the migrations not yet recorded; returns those it ran as `[id, name]`. */
export const run = Effect.zipRight(
  progressTable,
  migrate({ loader: Migrator.fromRecord(migrations) })
).pipe(Effect.orDie, Effect.withSpan("ControlPlane.migrate"))

/** Ready once the schema is current. */
export const layer = Layer.effectDiscard(run)
