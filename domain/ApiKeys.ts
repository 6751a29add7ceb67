/**
 * A cluster's API keys: made with a token shown once (only its hash is kept), listed
 * masked, revoked by id or by the token itself.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ApiKey, CreatedApiKey, CreateKeyRequest } from "./api/KeysApi.js"
import type { ClusterScope } from "./Authorization.js"
import type { NotFound } from "./Errors.js"
import type { DatabaseName } from "./Ids.js"

export class ApiKeys extends Context.Tag("sluice/ApiKeys")<
  ApiKeys,
  {
    /** The cluster's live keys, tokens masked. */
    readonly list: (scope: ClusterScope) => Effect.Effect<ReadonlyArray<ApiKey>>
    /**
     * A new key of the scope's cluster whose default database is `database`, made by the
     * scope's caller; the answer is the one place its whole token appears.
     */
    readonly create: (
      scope: ClusterScope,
      database: DatabaseName,
      request: CreateKeyRequest
    ) => Effect.Effect<CreatedApiKey>
    /** Revokes a live key of the cluster named by its id or its token. */
    readonly revoke: (scope: ClusterScope, idOrToken: string) => Effect.Effect<void, NotFound>
  }
>() {}
