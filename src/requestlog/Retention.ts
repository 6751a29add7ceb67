/**
 * Enforces `SLUICE_LOG_RETENTION_DAYS`: deletes expired request-log entries at start
 * and then periodically, in the background.
 */
import { Clock, Duration, Effect, Layer, Schedule } from "effect"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { Leases } from "../store/Leases.js"
import { RequestLogStore } from "./RequestLogStore.js"

export const PRUNE_INTERVAL = Duration.hours(1)

/** Runs `prune(now)` now and every `interval` after, forever; a failed run is logged. */
export const pruneForever = <E, R>(
  prune: (now: Date) => Effect.Effect<number, E, R>,
  interval: Duration.DurationInput
) =>
  Clock.currentTimeMillis.pipe(
    Effect.flatMap((now) => prune(new Date(now))),
    Effect.catchAllCause((cause) => Effect.logWarning("request log pruning failed", cause)),
    Effect.repeat(Schedule.spaced(interval))
  )

export const RetentionLive = Layer.scopedDiscard(
  Effect.gen(function* () {
    const { logRetentionDays } = yield* SluiceConfig
    const store = yield* RequestLogStore
    yield* (yield* Leases).run(
      "request-log-retention",
      pruneForever((now) => store.prune(now, logRetentionDays), PRUNE_INTERVAL)
    )
  })
)
