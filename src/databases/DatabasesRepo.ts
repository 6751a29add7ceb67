/** The databases each cluster has, as the control plane records them. */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import type { ClusterId } from "../../domain/Ids.js"

export class DatabasesRepo extends Effect.Service<DatabasesRepo>()("sluice/DatabasesRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      exists: (cluster: ClusterId, name: string) =>
        sql<{ n: number }>`select 1 as n from databases
                           where cluster_id = ${cluster} and name = ${name}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Names of the cluster's databases, sorted. */
      list: (cluster: ClusterId) =>
        sql<{ name: string }>`select name from databases where cluster_id = ${cluster}
                              order by name`.pipe(
          Effect.map((rows) => rows.map((row) => row.name)),
          Effect.orDie
        ),
      /** Every database of every live cluster. */
      all: sql<{ cluster_id: ClusterId; name: string }>`select d.cluster_id, d.name
        from databases d join clusters c on c.id = d.cluster_id
        where c.deleted_at is null`.pipe(Effect.orDie),
      /** Records a database; `false` when the cluster already has one of that name. */
      create: (cluster: ClusterId, name: string) =>
        sql<{ name: string }>`insert into databases (cluster_id, name)
                              values (${cluster}, ${name})
                              on conflict do nothing returning name`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Forgets a database; `false` when there was none of that name. */
      remove: (cluster: ClusterId, name: string) =>
        sql<{ name: string }>`delete from databases
                              where cluster_id = ${cluster} and name = ${name}
                              returning name`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        )
    }
  })
}) {}
