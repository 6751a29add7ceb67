/**
 * The service's own request log, as a cluster's admins and members read it: every API
 * request that named the cluster, newest first, secrets redacted, filtered and paged.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { LogsFilter, LogsPage } from "./api/LogsApi.js"
import type { ClusterScope } from "./Authorization.js"
import type { BadRequest } from "./Errors.js"

export class RequestLogs extends Context.Tag("sluice/RequestLogs")<
  RequestLogs,
  {
    /**
     * One page of the cluster's requests that `filter` keeps. `BadRequest` for a `search`
     * that is not free text and the tokens it understands. An empty list (`paths=`) or
     * search filters nothing.
     */
    readonly list: (
      scope: ClusterScope,
      filter: typeof LogsFilter.Type
    ) => Effect.Effect<LogsPage, BadRequest>
  }
>() {}
