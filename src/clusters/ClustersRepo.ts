/**
 * Cluster rows of the control plane. Deleted clusters keep their row with `deleted_at`
 * (their name may be taken again). Phase changes are compare-and-set, so two racing
 * transitions cannot both win.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { ClusterPhase } from "../../domain/api/ClusterModels.js"
import { ClusterRecord, ClusterSizing, PausedBy } from "../../domain/ClusterLifecycle.js"
import { ClusterId, OrganizationId } from "../../domain/Ids.js"

export class NewCluster extends Schema.Class<NewCluster>("NewCluster")({
  organization_id: OrganizationId,
  name: Schema.String,
  phase: ClusterPhase,
  ...ClusterSizing,
  byo_s3: Schema.optionalWith(Schema.NullOr(Schema.Unknown), { default: () => null })
}) {}

const Transition = Schema.Struct({
  id: ClusterId,
  from: Schema.Array(ClusterPhase),
  to: ClusterPhase,
  paused_by: Schema.NullOr(PausedBy),
  status_message: Schema.NullOr(Schema.String)
})

export class ClustersRepo extends Effect.Service<ClustersRepo>()("sluice/ClustersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, organization_id, name, phase, status_message, paused_by, shards,
      replicas, cpu_cores::float8 as cpu_cores, memory_gib::float8 as memory_gib,
      min_cpu_cores::float8 as min_cpu_cores, min_memory_gib::float8 as min_memory_gib,
      max_cpu_cores::float8 as max_cpu_cores, max_memory_gib::float8 as max_memory_gib,
      idle_timeout_minutes, byo_s3,
      to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS"+00:00"') as created_at`
    // Ordering names the table's column: the output column of the same name is text
    // with whole seconds, and would leave clusters made in the same second unordered.
    const live = sql`select ${columns} from clusters where deleted_at is null`

    const byName = SqlSchema.findOne({
      Request: Schema.Struct({ organization: OrganizationId, name: Schema.String }),
      Result: ClusterRecord,
      execute: (r) => sql`${live} and organization_id = ${r.organization} and name = ${r.name}`
    })
    const byId = SqlSchema.findOne({
      Request: ClusterId,
      Result: ClusterRecord,
      execute: (id) => sql`${live} and id = ${id}`
    })
    const ofOrganization = SqlSchema.findAll({
      Request: OrganizationId,
      Result: ClusterRecord,
      execute: (id) => sql`${live} and organization_id = ${id} order by clusters.created_at`
    })
    const all = SqlSchema.findAll({
      Request: Schema.Void,
      Result: ClusterRecord,
      execute: () => sql`${live} order by clusters.created_at`
    })
    const insert = SqlSchema.single({
      Request: NewCluster,
      Result: ClusterRecord,
      execute: (c) =>
        sql`insert into clusters ${sql.insert({ ...c, shards: 1, byo_s3: c.byo_s3 === null ? null : JSON.stringify(c.byo_s3) })}
            returning ${columns}`
    })
    const transition = SqlSchema.findOne({
      Request: Transition,
      Result: ClusterRecord,
      execute: (t) =>
        sql`update clusters set phase = ${t.to}, paused_by = ${t.paused_by},
              status_message = ${t.status_message}
            where id = ${t.id} and deleted_at is null and phase in ${sql.in(t.from)}
            returning ${columns}`
    })
    const rename = SqlSchema.findOne({
      Request: Schema.Struct({
        id: ClusterId,
        name: Schema.NullOr(Schema.String),
        idle_timeout_minutes: Schema.NullOr(Schema.Int)
      }),
      Result: ClusterRecord,
      execute: (u) =>
        sql`update clusters set name = coalesce(${u.name}, name),
              idle_timeout_minutes = coalesce(${u.idle_timeout_minutes}, idle_timeout_minutes)
            where id = ${u.id} and deleted_at is null
            returning ${columns}`
    })

    return {
      findByName: (organization: OrganizationId, name: string) =>
        Effect.orDie(byName({ organization, name })),
      findById: (id: ClusterId) => Effect.orDie(byId(id)),
      listOfOrganization: (id: OrganizationId) => Effect.orDie(ofOrganization(id)),
      /** Every cluster not deleted, for resuming their engines at start. */
      listAll: () => Effect.orDie(all(undefined)),
      /** Clusters whose engine should be running now. */
      listRunning: () =>
        Effect.orDie(
          Effect.map(all(undefined), (rows) =>
            rows.filter((row) => row.phase === "ready").map((row) => row.id)
          )
        ),
      /** Fails with the database error on a duplicate name, so callers can say 409. */
      create: (cluster: NewCluster) => insert(cluster),
      /**
       * As `create`, unless the organization has `limit` clusters already (`None`). Two
       * creates in one organization take turns, so neither passes the limit by racing.
       */
      createWithin: (cluster: NewCluster, limit: number) =>
        sql.withTransaction(
          Effect.gen(function* () {
            yield* sql`select 1 from organizations where id = ${cluster.organization_id} for update`
            const [row] = yield* sql<{ n: number }>`select count(*)::int as n from clusters
              where organization_id = ${cluster.organization_id} and deleted_at is null`
            if ((row?.n ?? 0) >= limit) return Option.none<ClusterRecord>()
            return Option.some(yield* insert(cluster))
          })
        ),
      createOrDie: (cluster: NewCluster) => Effect.orDie(insert(cluster)),
      /** Moves the cluster to `to` if it is in one of `from`; `None` if it was not. */
      transition: (t: typeof Transition.Type) => Effect.orDie(transition(t)),
      /** Changes the given fields; fails with the database error on a duplicate name. */
      update: (
        id: ClusterId,
        fields: { readonly name: string | null; readonly idle_timeout_minutes: number | null }
      ) => rename({ id, ...fields }),
      /** A data request reached the cluster at `at` (epoch ms); an earlier one changes nothing. */
      recordActivity: (id: ClusterId, at: number) =>
        Effect.orDie(
          sql`update clusters set last_active_ms = greatest(last_active_ms, ${at}) where id = ${id}`
        ),
      /** The last data request of each cluster that had one, as any node recorded it. */
      activity: () =>
        Effect.orDie(
          Effect.map(
            sql<{ id: ClusterId; last_active_ms: number }>`select id, last_active_ms from clusters
              where deleted_at is null and last_active_ms is not null`,
            (rows) => new Map(rows.map((row) => [row.id, Number(row.last_active_ms)]))
          )
        ),
      /** Marks the cluster deleted and revokes its keys, in one transaction. */
      markDeleted: (id: ClusterId) =>
        Effect.orDie(
          sql.withTransaction(
            Effect.zipRight(
              sql`update clusters set deleted_at = now(), phase = 'deleting' where id = ${id}`,
              sql`update api_keys set revoked_at = now() where cluster_id = ${id} and revoked_at is null`
            )
          )
        ),
      /** The external id the organization's roles on customer storage are assumed with. */
      externalIdOf: (organization: OrganizationId) =>
        Effect.orDie(
          Effect.flatMap(
            sql<{ external_id: string }>`select external_id from organizations
              where id = ${organization}`,
            ([row]) =>
              row === undefined
                ? Effect.dieMessage("no such organization")
                : Effect.succeed(row.external_id)
          )
        ),
      isPresent: (id: ClusterId) => Effect.map(Effect.orDie(byId(id)), Option.isSome)
    }
  })
}) {}
