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
      create: (cluster: ClusterId, name: string) =>
        Effect.orDie(
          sql`insert into databases (cluster_id, name) values (${cluster}, ${name})
              on conflict do nothing`
        )
    }
  })
}) {}
