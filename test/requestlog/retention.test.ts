/**
 * Retention runs in the background: at start, then every interval, with the clock's
 * "now"; a failed run does not stop later ones. And its setting is read and validated.
 */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Fiber, TestClock } from "effect"
import { sluiceConfig } from "../../src/config/SluiceConfig.js"
import { PRUNE_INTERVAL, pruneForever } from "../../src/requestlog/Retention.js"

describe("request log retention", () => {
  it.effect("prunes at start and then once per interval, with the current time", () =>
    Effect.gen(function* () {
      const seen: Array<number> = []
      const prune = (now: Date) =>
        Effect.suspend(() => {
          seen.push(now.getTime())
          // The second run fails; the loop must go on.
          return seen.length === 2 ? Effect.fail("store unavailable") : Effect.succeed(0)
        })
      const fiber = yield* Effect.fork(pruneForever(prune, PRUNE_INTERVAL))
      yield* TestClock.adjust("1 second")
      expect(seen).toEqual([0])
      yield* TestClock.adjust("59 minutes")
      expect(seen).toEqual([0])
      yield* TestClock.adjust("1 minute")
      yield* TestClock.adjust("3 hours")
      expect(seen).toEqual([0, 3_600_000, 7_200_000, 10_800_000, 14_400_000])
      yield* Fiber.interrupt(fiber)
    })
  )

  const configWith = (env: Record<string, string>) =>
    Effect.withConfigProvider(sluiceConfig, ConfigProvider.fromMap(new Map(Object.entries(env))))

  it.effect("SLUICE_LOG_RETENTION_DAYS defaults to 30 and must be a positive integer", () =>
    Effect.gen(function* () {
      expect((yield* configWith({})).logRetentionDays).toBe(30)
      expect((yield* configWith({ SLUICE_LOG_RETENTION_DAYS: "7" })).logRetentionDays).toBe(7)
      for (const bad of ["0", "-3", "week"]) {
        const error = yield* Effect.flip(configWith({ SLUICE_LOG_RETENTION_DAYS: bad }))
        expect(String(error)).toContain("SLUICE_LOG_RETENTION_DAYS")
      }
    })
  )
})
