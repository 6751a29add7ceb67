/**
 * Cluster metric samples live in the control plane, so a paused or
 * idled cluster's history stays readable. One row per cluster, replica and sampling time.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  // Values are per sampling interval: `read_queries`/`write_queries` are the deltas of the
  // engine's cumulative counters, which are kept beside them (`*_total`) as the baseline
  // for the next delta, also across a restart of this service. double precision, not
  // bigint, so that the driver hands back numbers (all values stay far below 2^53).
  // The primary key leads with (cluster_id, sampled_at): the index series reads use.
  yield* sql`CREATE TABLE cluster_metric_samples (
    cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    sampled_at timestamptz NOT NULL,
    replica text NOT NULL,
    cpu_cores double precision NOT NULL,
    memory_bytes double precision NOT NULL,
    read_queries double precision NOT NULL,
    write_queries double precision NOT NULL,
    read_queries_total double precision NOT NULL,
    write_queries_total double precision NOT NULL,
    PRIMARY KEY (cluster_id, sampled_at, replica)
  )`
  // Retention deletes by age across every cluster, deleted ones included.
  yield* sql`CREATE INDEX cluster_metric_samples_sampled_at ON cluster_metric_samples (sampled_at)`
})
