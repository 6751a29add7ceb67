/**
 * The databases each cluster has, as the control plane records them. Every change goes
 * through here, so the cache of each cluster's names (`known`) is dropped here too, on
 * every node; it only spares data requests a round trip, and a name missing from it is
 * looked up again.
 */
import { SqlClient } from "@effect/sql"
import { Duration, Effect, Schema } from "effect"
import { S3Location } from "../../domain/api/ClusterModels.js"
import type { ClusterId } from "../../domain/Ids.js"
import * as TtlCache from "../cache/TtlCache.js"

/** A database's storage as kept: no external id (roles are assumed with the organization's). */
export const StoredStorage = Schema.Struct({
  data: S3Location,
  backups: S3Location,
  role_arn: Schema.String
})
export type StoredStorage = typeof StoredStorage.Type

const DatabaseRow = Schema.Struct({ name: Schema.String, s3_storage: Schema.NullOr(StoredStorage) })

/** How long a cluster's list of names is reused. */
const KNOWN_TTL = Duration.seconds(5)

export class DatabasesRepo extends Effect.Service<DatabasesRepo>()("sluice/DatabasesRepo", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const names = (cluster: ClusterId) =>
      sql<{ name: string }>`select name from databases where cluster_id = ${cluster}
                            order by name`.pipe(
        Effect.map((rows) => rows.map((row) => row.name)),
        Effect.orDie
      )
    const known = yield* TtlCache.shared("known_databases", {
      ttl: KNOWN_TTL,
      capacity: 10_000,
      keyOf: (cluster: ClusterId) => cluster,
      lookup: (cluster: ClusterId): Effect.Effect<ReadonlySet<string>> =>
        Effect.map(names(cluster), (all) => new Set(all))
    })
    const changed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.ensuring(effect, known.invalidateAll)
    return {
      /** The cluster's names as read at most a few seconds ago (a newer one may be missing). */
      known: known.get,
      exists: (cluster: ClusterId, name: string) =>
        sql<{ n: number }>`select 1 as n from databases
                           where cluster_id = ${cluster} and name = ${name}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Names of the cluster's databases, sorted. */
      list: names,
      /** The cluster's databases with their customer-owned storage (or null), by name. */
      listWithStorage: (cluster: ClusterId) =>
        sql<{ name: string; s3_storage: unknown }>`select name, s3_storage from databases
                                                 where cluster_id = ${cluster} order by name`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(DatabaseRow))),
          Effect.orDie
        ),
      /** Every database of every live cluster. */
      all: sql<{ cluster_id: ClusterId; name: string }>`select d.cluster_id, d.name
        from databases d join clusters c on c.id = d.cluster_id
        where c.deleted_at is null`.pipe(Effect.orDie),
      /** Records a database; `false` when the cluster already has one of that name. */
      create: (cluster: ClusterId, name: string, storage: StoredStorage | null = null) =>
        changed(
          sql<{ name: string }>`insert into databases (cluster_id, name, s3_storage)
                              values (${cluster}, ${name},
                                      ${storage === null ? null : JSON.stringify(storage)})
                              on conflict do nothing returning name`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          )
        ),
      /** Forgets a database; `false` when there was none of that name. */
      remove: (cluster: ClusterId, name: string) =>
        changed(
          sql<{ name: string }>`delete from databases
                              where cluster_id = ${cluster} and name = ${name}
                              returning name`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          )
        )
    }
  })
}) {}
