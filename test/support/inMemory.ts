/**
 * Helpers for tests on `InMemoryLive` (layers/Test.ts): the bootstrap admin as a caller,
 * and waiting for a cluster's background work without waiting on time.
 */
import { Effect, Option } from "effect"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { Authenticator } from "../../domain/Identity.js"
import type { ClusterId } from "../../domain/Ids.js"
import { FirstStart } from "../../domain/FirstStart.js"
import { EngineLocks } from "../../src/clusters/EngineLocks.js"

/** The first start's admin API key. */
export const adminKeyOfFirstStart = Effect.map(
  FirstStart,
  (firstStart) => Option.getOrThrowWith(firstStart, () => new Error("not a first start")).apiKey
)

/** The first start's admin API key, authenticated. */
export const adminKeyCaller = Effect.gen(function* () {
  const authenticator = yield* Authenticator
  const caller = yield* authenticator.authenticate(yield* adminKeyOfFirstStart)
  if (caller._tag !== "ApiKeyCaller") return yield* Effect.dieMessage("expected a key")
  return caller
})

const transitional = new Set(["provisioning", "pausing", "resuming"])

/**
 * The cluster's state once its transition is over. The lifecycle finishes a transition in
 * the background under the cluster's engine lock (`EngineLocks`), so this takes that lock
 * (waiting for the work) until the phase is no longer a transitional one.
 */
export const settled = (cluster: ClusterId) =>
  Effect.gen(function* () {
    const locks = yield* EngineLocks
    const lifecycle = yield* ClusterLifecycle
    for (;;) {
      const state = yield* locks.withEngine(cluster, lifecycle.stateOf(cluster))
      if (Option.isNone(state) || !transitional.has(state.value.phase)) return state
      // The background work is forked but has not taken the lock yet: let it run.
      yield* Effect.yieldNow()
    }
  })

/** The tag of the error `effect` fails with (it must fail): what a capability refused with. */
export const tagOf = <A, E extends { readonly _tag: string }, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.flip(effect), (error) => error._tag)
