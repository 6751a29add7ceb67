/** `GET /v1/logs` (`RequestLogs`): the caller's cluster's request log, newest first, filtered and paged. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import { LOGS_PARAM_NAMES } from "../../domain/api/LogsApi.js"
import { BadRequest } from "../../domain/Errors.js"
import { RequestLogs } from "../../domain/RequestLogs.js"

const known = new Set(LOGS_PARAM_NAMES)

// A parameter this endpoint does not know is a filter it cannot honour: refused rather
// than answered unfiltered.
const unknownParams = (url: string) => {
  const query = url.indexOf("?") === -1 ? "" : url.slice(url.indexOf("?") + 1)
  return [...new Set(new URLSearchParams(query).keys())].filter((name) => !known.has(name))
}

export const LogsHttpLive = HttpApiBuilder.group(SluiceApi, "logs", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const logs = yield* RequestLogs
    return handlers.handle("list", ({ urlParams, request }) =>
      Effect.gen(function* () {
        const unknown = unknownParams(request.url)
        if (unknown.length > 0) {
          return yield* new BadRequest({
            message: `Unknown logs filter ${unknown.map((n) => `'${n.slice(0, 64)}'`).join(", ")}.`,
            hint: `GET /v1/logs accepts ${LOGS_PARAM_NAMES.join(", ")}.`
          })
        }
        // `database` selects as on every data endpoint (it must exist and be readable);
        // the log stays the cluster's, and `log_databases` filters it.
        const { scope } = yield* scopes.dataScope("read", urlParams)
        return yield* logs.list(scope, urlParams)
      })
    )
  })
)
