/**
 * The operations an engine has under way: `cancel` finds a query's AbortController
 * here, and `close` waits until none is left before the connection goes (closing a
 * chDB connection under a running statement aborts the engine for the whole process).
 */
import { Deferred, Effect } from "effect"
import type { Scope } from "effect"
import { EngineError } from "../../domain/Engine.js"
import { acquireRelease } from "../stream/ScopedRelease.js"

export interface InFlight {
  /** Registers an operation for the enclosing scope; fails once the engine is closing. */
  readonly enter: (
    queryId: string | undefined
  ) => Effect.Effect<AbortController, EngineError, Scope.Scope>
  /** Aborts the operation with this id if this process started it. */
  readonly abort: (queryId: string) => boolean
  /** Refuses new operations and waits for the running ones to end. */
  readonly close: Effect.Effect<void>
}

export const make = (): InFlight => {
  const byId = new Map<string, AbortController>()
  const running = new Set<Deferred.Deferred<void>>()
  let closing = false

  const enter = (queryId: string | undefined) =>
    acquireRelease(
      Effect.gen(function* () {
        if (closing)
          return yield* new EngineError({
            message: "The engine is shutting down",
            type: "ENGINE_CLOSED"
          })
        const done = yield* Deferred.make<void>()
        const controller = new AbortController()
        running.add(done)
        if (queryId !== undefined) byId.set(queryId, controller)
        return { done, controller }
      }),
      ({ done, controller }) =>
        Effect.suspend(() => {
          running.delete(done)
          if (queryId !== undefined && byId.get(queryId) === controller) byId.delete(queryId)
          return Deferred.succeed(done, undefined)
        })
    ).pipe(Effect.map(({ controller }) => controller))

  const abort = (queryId: string) => {
    const controller = byId.get(queryId)
    controller?.abort()
    return controller !== undefined
  }

  const close = Effect.suspend(() => {
    closing = true
    return Effect.forEach([...running], Deferred.await, { discard: true })
  })

  return { enter, abort, close }
}
