/**
 * The databases of a cluster: a record in the control plane and a database in the
 * cluster's engine, made and removed together. `default` exists from the cluster's start
 * and stays; the engine's own databases are never made or dropped.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ByoS3 } from "./api/ClusterModels.js"
import type { DatabaseInfo } from "./api/DatabasesApi.js"
import type { ClusterScope } from "./Authorization.js"
import type { BadRequest, ClusterPaused, Conflict, NotFound, Unavailable } from "./Errors.js"
import type { DatabaseName } from "./Ids.js"

export class Databases extends Context.Tag("sluice/Databases")<
  Databases,
  {
    /** Every database of the cluster by name, with its customer-owned storage if any. */
    readonly list: (scope: ClusterScope) => Effect.Effect<ReadonlyArray<DatabaseInfo>>
    /**
     * Creates the database, with `storage` as its customer-owned storage (shown, never its
     * role). `BadRequest`: a reserved name; `Conflict`: the name exists. When the engine
     * cannot make it, the record is taken back and nothing remains.
     */
    readonly create: (
      scope: ClusterScope,
      name: DatabaseName,
      storage: ByoS3 | undefined
    ) => Effect.Effect<DatabaseInfo, BadRequest | Conflict | ClusterPaused | Unavailable>
    /**
     * Drops the database and its data, then its record (a failed drop leaves it listed, to
     * retry). `Conflict` for `default`; keys whose default it is are not revoked.
     */
    readonly remove: (
      scope: ClusterScope,
      name: DatabaseName
    ) => Effect.Effect<void, BadRequest | Conflict | NotFound | ClusterPaused | Unavailable>
  }
>() {}
