/**
 * Global setup of the `external` project: leaves the PostgreSQL server as it found it,
 * dropping the databases the suites created (and any a killed run left behind).
 */
import { Effect } from "effect"
import { onServer, testDatabasePrefix } from "./controlPlane.js"

const dropTestDatabases = Effect.gen(function* () {
  const rows = yield* onServer<{ readonly datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE '${testDatabasePrefix}%'`
  )
  for (const row of rows) {
    yield* onServer(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`)
  }
})

export const setup = () => Effect.runPromise(dropTestDatabases)
export const teardown = () => Effect.runPromise(dropTestDatabases)
