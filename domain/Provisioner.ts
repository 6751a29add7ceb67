/**
 * Where clusters' engines run. The embedded implementation runs each cluster's chDB in
 * its own worker process; the ClickHouse-server implementation maps a cluster to a
 * namespace (databases, user, settings profile) on a server. The lifecycle state machine
 * (`src/clusters/`) drives it; the data plane reaches engines only through `Engines`.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { AnalyticalEngine, EngineUnavailable } from "./Engine.js"
import { ClusterId } from "./Ids.js"

/** What a cluster's engine is given: its size is enforced on the engine itself. */
export class EngineSpec extends Schema.Class<EngineSpec>("EngineSpec")({
  clusterId: ClusterId,
  /** Per replica: becomes the engine's thread limits. */
  cpuCores: Schema.Number,
  /** Per replica: becomes the engine's memory limit. */
  memoryBytes: Schema.Number,
  replicas: Schema.Int
}) {}

/** One reading of a running engine's resource use. */
export class EngineSample extends Schema.Class<EngineSample>("EngineSample")({
  /** CPU cores used on average since the previous sample (process CPU time / wall time). */
  cpuCores: Schema.Number,
  memoryBytes: Schema.Number,
  /** Cumulative since the engine started: read (SELECT …) and write (INSERT) queries. */
  readQueries: Schema.Number,
  writeQueries: Schema.Number,
  /** The replica the reading is for (`replica-1` …). */
  replica: Schema.String
}) {}

/** What the provisioner knows of an engine. */
export class EngineStatus extends Schema.Class<EngineStatus>("EngineStatus")({
  running: Schema.Boolean,
  /** Something a user should know, e.g. that the engine crashed and was restarted. */
  message: Schema.NullOr(Schema.String)
}) {}

export class Provisioner extends Context.Tag("sluice/Provisioner")<
  Provisioner,
  {
    /** Starts the cluster's engine (idempotent); completes once it answers queries. */
    readonly start: (spec: EngineSpec) => Effect.Effect<void, EngineUnavailable>
    /** Stops the engine after its work in flight; its data stays. Idempotent. */
    readonly stop: (cluster: ClusterId) => Effect.Effect<void>
    /** Stops the engine and removes its data for good. */
    readonly destroy: (cluster: ClusterId) => Effect.Effect<void>
    /** The running engine, or `EngineUnavailable` when it is not running. */
    readonly engine: (cluster: ClusterId) => Effect.Effect<AnalyticalEngine, EngineUnavailable>
    readonly status: (cluster: ClusterId) => Effect.Effect<EngineStatus>
    /** One reading per replica of a running engine; empty when it is not running. */
    readonly sample: (cluster: ClusterId) => Effect.Effect<ReadonlyArray<EngineSample>>
  }
>() {}
