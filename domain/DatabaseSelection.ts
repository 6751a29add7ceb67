/**
 * Which database of its cluster a data request means: the name the
 * caller asked for, else the key's stored default, else `default`. How a transport
 * learns the asked-for name (a parameter, a header, gRPC metadata) is its own business.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { ClusterScope } from "./Authorization.js"
import type { DatabaseNotFound, InvalidDatabaseName } from "./Errors.js"
import type { DatabaseName } from "./Ids.js"

export class DatabaseSelection extends Context.Tag("sluice/DatabaseSelection")<
  DatabaseSelection,
  {
    readonly select: (
      scope: ClusterScope,
      requested: string | undefined
    ) => Effect.Effect<DatabaseName, InvalidDatabaseName | DatabaseNotFound>
  }
>() {}
