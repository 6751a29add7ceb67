/**
 * Cluster metric samples in the control plane: one row per replica and sampling time,
 * holding per-interval values (query-count deltas, CPU cores, memory bytes).
 */
import { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import type { EngineSample } from "../../../domain/Provisioner.js"
import type { ClusterId } from "../../../domain/Ids.js"

/**
 * Queries since the previous reading of a cumulative counter. A counter below its
 * previous value means the engine restarted and counted again from zero, so everything
 * it counted is new; with no previous reading, so is everything counted so far.
 */
export const counterDelta = (previous: number | undefined, current: number) =>
  previous === undefined || current < previous ? current : current - previous

/** One point of every metric for one replica: a sample, or several merged into a bucket. */
export class ReplicaPoint extends Schema.Class<ReplicaPoint>("ReplicaPoint")({
  timeMs: Schema.Number,
  replica: Schema.String,
  readQueries: Schema.Number,
  writeQueries: Schema.Number,
  cpuCores: Schema.Number,
  memoryBytes: Schema.Number
}) {}

const Totals = Schema.Struct({
  read_queries_total: Schema.Number,
  write_queries_total: Schema.Number
})

export class MetricsStore extends Effect.Service<MetricsStore>()("sluice/MetricsStore", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const decodeTotals = Schema.decodeUnknown(Schema.Array(Totals))
    const decodePoints = Schema.decodeUnknown(Schema.Array(ReplicaPoint))

    // The baseline is read back from the table rather than kept in memory, so that a
    // restart of this service (engines of a ClickHouse server keep counting) is no reset.
    const previousTotals = (cluster: ClusterId, replica: string) =>
      Effect.flatMap(
        sql`select read_queries_total, write_queries_total from cluster_metric_samples
            where cluster_id = ${cluster} and replica = ${replica}
            order by sampled_at desc limit 1`,
        decodeTotals
      ).pipe(Effect.map((rows) => rows[0]))

    return {
      /** Stores the readings of one cluster taken at `at`. */
      record: Effect.fn("MetricsStore.record")(function* (
        cluster: ClusterId,
        at: Date,
        samples: ReadonlyArray<EngineSample>
      ) {
        for (const sample of samples) {
          const previous = yield* previousTotals(cluster, sample.replica)
          yield* sql`insert into cluster_metric_samples ${sql.insert({
            cluster_id: cluster,
            sampled_at: at,
            replica: sample.replica,
            cpu_cores: sample.cpuCores,
            memory_bytes: sample.memoryBytes,
            read_queries: counterDelta(previous?.read_queries_total, sample.readQueries),
            write_queries: counterDelta(previous?.write_queries_total, sample.writeQueries),
            read_queries_total: sample.readQueries,
            write_queries_total: sample.writeQueries
          })} on conflict do nothing`
        }
      }, Effect.orDie),

      /**
       * Per replica, the samples in `[start, end]`; with `stepSeconds`, merged into
       * buckets of that length counted from `start` (query counts summed, CPU and memory
       * at their maximum), each point at its bucket's start.
       */
      points: Effect.fn("MetricsStore.points")(function* (
        cluster: ClusterId,
        start: Date,
        end: Date,
        stepSeconds: number | undefined
      ) {
        const epoch = sql`extract(epoch from sampled_at)`
        const time =
          stepSeconds === undefined
            ? epoch
            : sql`extract(epoch from ${start}::timestamptz)
                + floor((${epoch} - extract(epoch from ${start}::timestamptz)) / ${stepSeconds})
                  * ${stepSeconds}`
        const rows = yield* sql`select round((${time}) * 1000)::float8 as "timeMs", replica,
            sum(read_queries) as "readQueries", sum(write_queries) as "writeQueries",
            max(cpu_cores) as "cpuCores", max(memory_bytes) as "memoryBytes"
          from cluster_metric_samples
          where cluster_id = ${cluster} and sampled_at >= ${start} and sampled_at <= ${end}
          group by 1, 2 order by 1, 2`
        return yield* decodePoints(rows)
      }, Effect.orDie),

      /** Deletes samples older than `days` before `now`; returns how many. */
      prune: Effect.fn("MetricsStore.prune")(function* (now: Date, days: number) {
        const cutoff = new Date(now.getTime() - days * 86_400_000)
        const rows = yield* sql<{ readonly n: number }>`with gone as (
            delete from cluster_metric_samples where sampled_at < ${cutoff} returning 1
          ) select count(*)::int as n from gone`
        return rows[0]?.n ?? 0
      }, Effect.orDie)
    }
  })
}) {}
