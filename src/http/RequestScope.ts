/**
 * What HTTP handlers ask `Authorization` and `DatabaseSelection`, for the request's own
 * caller (set by the `Authentication` middleware) and its database parameter or header.
 * Built once per handler group.
 */
import { Effect } from "effect"
import { Authorization } from "../../domain/Authorization.js"
import type { DataAction, DataScopeNames, ScopeNames } from "../../domain/Authorization.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { CurrentCaller } from "../../domain/Identity.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import { requestedDatabase } from "./DatabaseParam.js"

export const requestScopes = Effect.gen(function* () {
  const authorization = yield* Authorization
  const selection = yield* DatabaseSelection
  const clusterScope = (action: DataAction, params: ScopeNames) =>
    Effect.flatMap(CurrentCaller, (caller) => authorization.clusterScope(caller, action, params))
  return {
    user: Effect.flatMap(CurrentCaller, authorization.user),
    organizationScope: (organization: string, need: OrganizationRole, what: string) =>
      Effect.flatMap(CurrentCaller, (caller) =>
        authorization.organizationScope(caller, organization, need, what)
      ),
    clusterScope,
    /** The cluster scope and the selected database of a data request. */
    dataScope: Effect.fnUntraced(function* (action: DataAction, params: DataScopeNames) {
      const scope = yield* clusterScope(action, params)
      const database = yield* selection.select(scope, yield* requestedDatabase(params.database))
      return { scope, database }
    })
  }
})
