/**
 * "Nothing inserted by a refused request", checked per round of the hostile suite: the
 * row count of every table of every database before and after the round. A table whose
 * rows changed (or that appeared) must be one that a request answered with a 2xx in that
 * round could have written; any other change came from a refused request.
 */
import { Effect } from "effect"
import { DatabaseName } from "../../domain/Ids.js"
import { adminClientOf } from "../support/client.js"
import type { Sent } from "../support/hostileClient.js"
import type { RunningServer } from "../support/server.js"
import type { Operation } from "./hostileChecks.js"

/** `database.table` → rows, as the admin's table list counts them. */
export const holdings = (server: RunningServer) =>
  Effect.gen(function* () {
    const client = yield* adminClientOf(server)
    const { databases } = yield* client.databases.list({ urlParams: {} })
    const rows = new Map<string, number>()
    for (const { name } of databases) {
      const listed = yield* client.tables.list({
        urlParams: { database: DatabaseName.make(name) }
      })
      for (const table of listed.tables) rows.set(`${name}.${table.name}`, table.total_rows)
    }
    return rows
  }).pipe(Effect.orDie)

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/** Whether an accepted `sent` may have added rows to `table` (a name, no database). */
export const mayHaveWritten = (operation: Operation, sent: Sent, table: string) => {
  if (operation.method !== "POST") return false
  const { template } = operation
  if (template === "/v1/tables/{table}") {
    const named = decoded(sent.path.split("?")[0]!.split("/")[3] ?? "")
    // otlp-metrics into T also writes T_gauge, T_sum, …
    return table === named || table.startsWith(`${named}_`)
  }
  if (template.startsWith("/services/collector")) return table === "spl_events"
  if (template.startsWith("/otlp/") || template.startsWith("/metrics-compat/")) {
    const named = Object.entries(sent.headers)
      .filter(([header]) => /^x-service-\w+-table$/.test(header))
      .map(([, value]) => value)
    return /^(traces|logs|metrics)/.test(table) || named.includes(table)
  }
  return false
}

/** The tables whose rows changed between two holdings. */
export const changedTables = (
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>
) => [...after].filter(([key, rows]) => before.get(key) !== rows).map(([key]) => key)
