/**
 * Installed apps per cluster, as the control plane records them (`apps` table). Only the
 * control plane is read, so listing works whatever state the cluster's engine is in.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { AppId } from "../../domain/AppIds.js"
import type { ClusterId } from "../../domain/Ids.js"

const decodeAppId = Schema.decodeUnknownOption(AppId)

export class AppsRepo extends Effect.Service<AppsRepo>()("sluice/AppsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return {
      /** The catalog apps installed on the cluster (rows of ids no longer known are ignored). */
      installed: (cluster: ClusterId) =>
        sql<{ app_id: string }>`select app_id from apps where cluster_id = ${cluster}`.pipe(
          Effect.map((rows) => rows.flatMap((row) => Option.toArray(decodeAppId(row.app_id)))),
          Effect.orDie
        ),
      isInstalled: (cluster: ClusterId, app: AppId) =>
        sql<{ n: number }>`select 1 as n from apps
                           where cluster_id = ${cluster} and app_id = ${app}`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),
      /** Idempotent: installing an installed app keeps its first `installed_at`. */
      install: (cluster: ClusterId, app: AppId) =>
        sql`insert into apps (cluster_id, app_id) values (${cluster}, ${app})
            on conflict do nothing`.pipe(Effect.asVoid, Effect.orDie),
      /** Idempotent; only the record goes, the cluster's data and saved searches stay. */
      uninstall: (cluster: ClusterId, app: AppId) =>
        sql`delete from apps where cluster_id = ${cluster} and app_id = ${app}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),
      /** Organization and cluster names of a live cluster, to write concrete hints. */
      names: (cluster: ClusterId) =>
        sql<{ organization: string; cluster: string }>`select o.name as organization,
              c.name as cluster
            from clusters c join organizations o on o.id = c.organization_id
            where c.id = ${cluster} and c.deleted_at is null`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        )
    }
  })
}) {}
