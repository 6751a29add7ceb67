/**
 * `@clickhouse/client`'s own log, through the service's logger: one line per event, the
 * error's first line and no stack trace (its default logger prints both, several lines
 * each). A statement the server refused is the caller's error, which sluice reports
 * where the statement came from: the client's line for it is debug, not an error.
 */
import { ClickHouseError } from "@clickhouse/client"
import type { ErrorLogParams, Logger, LogParams, WarnLogParams } from "@clickhouse/client"
import { Effect, Runtime } from "effect"

const firstLine = (text: string) => text.split("\n", 1)[0]!.trim()

const lineOf = ({ message, err }: LogParams & { readonly err?: Error | undefined }) =>
  err === undefined ? firstLine(message) : `${firstLine(message)}: ${firstLine(err.message)}`

// In the line itself: a logger that prints annotations on lines of their own (Effect's
// pretty logger) would make one event several lines.
const context = ({ module, args }: LogParams) => {
  const queryId = args?.["query_id"]
  return typeof queryId === "string" ? ` (${module}, query ${queryId})` : ` (${module})`
}

/** The `log.LoggerClass` option of `createClient`, logging on `runtime`. */
export const loggerClass = (runtime: Runtime.Runtime<never>): new () => Logger => {
  const log = (
    params: LogParams & { readonly err?: Error | undefined },
    level: (message: string) => Effect.Effect<void>
  ) => Runtime.runSync(runtime)(level(`ClickHouse client${context(params)}: ${lineOf(params)}`))
  return class ClickHouseClientLog implements Logger {
    trace(params: LogParams) {
      log(params, Effect.logTrace)
    }
    debug(params: LogParams) {
      log(params, Effect.logDebug)
    }
    info(params: LogParams) {
      log(params, Effect.logInfo)
    }
    warn(params: WarnLogParams) {
      log(params, Effect.logWarning)
    }
    error(params: ErrorLogParams) {
      log(params, params.err instanceof ClickHouseError ? Effect.logDebug : Effect.logError)
    }
  }
}
