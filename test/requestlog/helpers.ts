/** Reading the request log over HTTP; entries arrive asynchronously, so reads poll. */
import { Effect, Schedule, Schema } from "effect"
import type { LogEntry } from "../../domain/api/LogsApi.js"
import { LogsPage } from "../../domain/api/LogsApi.js"
import type { RunningServer } from "../support/server.js"
import { call } from "../support/server.js"

const decodePage = Schema.decodeUnknownSync(LogsPage)

export const listLogs = (server: RunningServer, token: string, query = "") =>
  Effect.map(
    call(server, "GET", `/v1/logs${query === "" ? "" : `?${query}`}`, { token }),
    (reply) => {
      if (reply.status !== 200)
        throw new Error(`GET /v1/logs?${query}: ${reply.status} ${reply.text}`)
      return decodePage(reply.json)
    }
  )

/** The first entry matching `predicate` among the newest 200, waiting up to ~10 s for it. */
export const awaitEntry = (
  server: RunningServer,
  token: string,
  predicate: (entry: LogEntry) => boolean
): Effect.Effect<LogEntry> =>
  listLogs(server, token, "limit=200").pipe(
    Effect.flatMap((page) => {
      const found = page.logs.find(predicate)
      return found === undefined ? Effect.fail("not yet" as const) : Effect.succeed(found)
    }),
    Effect.retry({ times: 100, schedule: Schedule.spaced("100 millis") }),
    Effect.orDie
  )
