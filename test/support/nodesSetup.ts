/**
 * Global setup of the `nodes` project: drops the databases a killed run of the
 * multi-node suites left behind. One a running suite uses has connections and stays.
 */
import { Effect } from "effect"
import { onServer } from "./controlPlane.js"
import { nodesDatabasePrefix } from "./nodes.js"

export const setup = () =>
  Effect.runPromise(
    Effect.gen(function* () {
      const rows = yield* onServer<{ readonly datname: string }>(
        `SELECT datname FROM pg_database WHERE datname LIKE '${nodesDatabasePrefix}%'
           AND datname NOT IN (SELECT datname FROM pg_stat_activity WHERE datname IS NOT NULL)`
      )
      for (const row of rows) {
        yield* Effect.ignore(Effect.sandbox(onServer(`DROP DATABASE IF EXISTS ${row.datname}`)))
      }
    })
  )
