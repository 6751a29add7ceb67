/** Helpers of the event-collector suites: installing the spl-app, posting, reading rows back. */
import { Effect } from "effect"
import { installApp } from "./client.js"
import { query } from "./otel.js"
import type { RunningServer } from "./server.js"
import { call } from "./server.js"

export const installSplApp = (server: RunningServer, email: string, password: string) =>
  installApp(server, "spl-app", email, password)

/** POSTs `body` to a collector path with `Authorization: Splunk <key>` unless headers say otherwise. */
export const post = (
  server: RunningServer,
  path: string,
  body: string | Uint8Array,
  key: string | undefined,
  headers: Record<string, string> = {}
) =>
  call(server, "POST", path, {
    rawBody: body,
    headers: { ...(key === undefined ? {} : { authorization: `Splunk ${key}` }), ...headers }
  })

/** Rows of `spl_events` matching `where`, oldest first. */
export const events = (server: RunningServer, columns: string, where: string) =>
  query(server, `SELECT ${columns} FROM spl_events WHERE ${where} ORDER BY _time, _raw`)

export const count = (server: RunningServer) =>
  Effect.map(query(server, "SELECT count() AS n FROM spl_events"), (rows) => Number(rows[0]?.n))
