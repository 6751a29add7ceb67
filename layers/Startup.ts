/**
 * What runs when sluice starts, in order: bootstrap the control plane (the first start's
 * organization, cluster, admin), make sure every recorded database exists in its engine,
 * bring each cluster to the phase it was left in; then the background work: idling,
 * metrics sampling and request-log retention, each on one node at a time (`Leases`).
 */
import { Effect, Layer, Option } from "effect"
import { Bootstrap } from "../src/bootstrap/Bootstrap.js"
import { FirstStart } from "../domain/FirstStart.js"
import { FirstStartLive } from "../src/bootstrap/FirstStart.js"
import { ClusterLifecycle } from "../domain/ClusterLifecycle.js"
import { IdlingLive } from "../src/clusters/Idling.js"
import { MetricsSamplerLive } from "../src/clusters/usage/MetricsSampler.js"
import { MetricsStore } from "../src/clusters/usage/MetricsStore.js"
import { ensureEngineDatabases } from "../src/databases/EnsureEngineDatabases.js"
import { RetentionLive } from "../src/requestlog/Retention.js"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import * as AdvisoryLocks from "../src/store/AdvisoryLocks.js"
import * as Leases from "../src/store/Leases.js"

const BootLive = Layer.effectDiscard(
  Effect.gen(function* () {
    yield* FirstStart
    yield* ensureEngineDatabases
    yield* Effect.flatMap(ClusterLifecycle, (lifecycle) => lifecycle.boot)
  })
)

/** The embedded control plane serves one node, which holds every lease. */
const LeasesLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ databaseUrl }) =>
    Option.isNone(databaseUrl) ? Leases.always : AdvisoryLocks.layer
  )
)

const BackgroundLive = Layer.mergeAll(
  IdlingLive,
  MetricsSamplerLive.pipe(Layer.provide(MetricsStore.Default)),
  RetentionLive
).pipe(Layer.provide(LeasesLive))

export const StartupLive = Layer.merge(BootLive, BackgroundLive).pipe(
  Layer.provideMerge(FirstStartLive),
  Layer.provide(Bootstrap.Default)
)
