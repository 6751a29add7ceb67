/** Cluster rows of the control plane. Deleted clusters keep their row with `deleted_at`. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { ClusterPhase } from "../../domain/api/ClusterModels.js"
import { ClusterId, OrganizationId } from "../../domain/Ids.js"

export class ClusterRow extends Schema.Class<ClusterRow>("ClusterRow")({
  id: ClusterId,
  organization_id: OrganizationId,
  name: Schema.String,
  phase: ClusterPhase
}) {}

export class NewCluster extends Schema.Class<NewCluster>("NewCluster")({
  organization_id: OrganizationId,
  name: Schema.String,
  phase: ClusterPhase,
  replicas: Schema.Int,
  cpu_cores: Schema.Number,
  memory_gib: Schema.Number,
  min_cpu_cores: Schema.Number,
  min_memory_gib: Schema.Number,
  max_cpu_cores: Schema.Number,
  max_memory_gib: Schema.Number,
  idle_timeout_minutes: Schema.Int
}) {}

export class ClustersRepo extends Effect.Service<ClustersRepo>()("sluice/ClustersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const live = sql`select id, organization_id, name, phase from clusters where deleted_at is null`
    const byName = SqlSchema.findOne({
      Request: Schema.Struct({ organization: OrganizationId, name: Schema.String }),
      Result: ClusterRow,
      execute: (r) => sql`${live} and organization_id = ${r.organization} and name = ${r.name}`
    })
    const byId = SqlSchema.findOne({
      Request: ClusterId,
      Result: ClusterRow,
      execute: (id) => sql`${live} and id = ${id}`
    })
    const ofOrganization = SqlSchema.findAll({
      Request: OrganizationId,
      Result: ClusterRow,
      execute: (id) => sql`${live} and organization_id = ${id} order by created_at`
    })
    const insert = SqlSchema.single({
      Request: NewCluster,
      Result: ClusterRow,
      execute: (c) =>
        sql`insert into clusters ${sql.insert({ ...c, shards: 1 })}
            returning id, organization_id, name, phase`
    })
    const running = SqlSchema.findAll({
      Request: Schema.Void,
      Result: Schema.Struct({ id: ClusterId }),
      execute: () => sql`select id from clusters where deleted_at is null and phase = 'ready'`
    })
    return {
      /** Clusters whose engine should be running now. */
      listRunning: () =>
        Effect.orDie(Effect.map(running(undefined), (rows) => rows.map((row) => row.id))),
      findByName: (organization: OrganizationId, name: string) =>
        Effect.orDie(byName({ organization, name })),
      findById: (id: ClusterId) => Effect.orDie(byId(id)),
      listOfOrganization: (id: OrganizationId) => Effect.orDie(ofOrganization(id)),
      create: (cluster: NewCluster) => Effect.orDie(insert(cluster))
    }
  })
}) {}
