/**
 * Global setup of the `external` project: leaves the PostgreSQL server as it found it,
 * dropping the databases the suites created (and any a killed run left behind). The
 * suites' own connections are ended first; not with `DROP DATABASE … WITH (FORCE)`, which
 * fails for a role that may not signal the autovacuum worker that happens to be in the
 * database then, where a plain `DROP DATABASE` stops that worker itself.
 */
import { Effect } from "effect"
import { onServer, testDatabasePrefix } from "./controlPlane.js"

const dropTestDatabases = Effect.gen(function* () {
  const rows = yield* onServer<{ readonly datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE '${testDatabasePrefix}%'`
  )
  for (const row of rows) {
    yield* onServer(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = '${row.datname}' AND usename = current_user AND pid <> pg_backend_pid()`
    )
    yield* onServer(`DROP DATABASE IF EXISTS ${row.datname}`)
  }
})

export const setup = () => Effect.runPromise(dropTestDatabases)
export const teardown = () => Effect.runPromise(dropTestDatabases)
