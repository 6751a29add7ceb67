/**
 * A cancel for a query or URL load this node does not run, asked of the other nodes on
 * the control plane (`ControlPlaneEvents`): the node that runs it under the same key (its
 * organization, cluster, database and id, today's rule) stops it and answers. No answer
 * within `ANSWER_WAIT` means no node runs it.
 */
import { Clock, Deferred, Duration, Effect, Option, Schema } from "effect"
import type { ControlPlaneEventsShape } from "../events/ControlPlaneEvents.js"
import type { EngineError } from "../../domain/Engine.js"

/** A query or URL load running in this process. */
export interface Running {
  /** Stops it (a kill in the engine, or interrupting the work that runs the statements). */
  readonly stop: Effect.Effect<void, EngineError>
}

const ASKED = "query-cancel"
const ANSWERED = "query-cancelled"
const ANSWER_WAIT = Duration.seconds(2)

const Request = Schema.parseJson(Schema.Struct({ key: Schema.String, answer: Schema.String }))

export const makeCancelElsewhere = (
  events: ControlPlaneEventsShape,
  runningHere: (key: string) => Running | undefined
) =>
  Effect.gen(function* () {
    const waiting = new Map<string, Deferred.Deferred<void>>()
    yield* events.subscribe(ASKED, (payload) =>
      Effect.gen(function* () {
        const request = yield* Effect.option(Schema.decode(Request)(payload))
        if (Option.isNone(request)) return
        const entry = runningHere(request.value.key)
        if (entry === undefined) return
        yield* Effect.ignore(entry.stop)
        yield* events.publish(ANSWERED, request.value.answer)
      })
    )
    yield* events.subscribe(ANSWERED, (answer) =>
      Effect.suspend(() => {
        const deferred = waiting.get(answer)
        return deferred === undefined ? Effect.void : Deferred.succeed(deferred, undefined)
      })
    )
    /** Whether another node ran the query of `key` and has stopped it. */
    const ask = (key: string) =>
      Effect.gen(function* () {
        const answer = crypto.randomUUID()
        const answered = yield* Deferred.make<void>()
        waiting.set(answer, answered)
        yield* events.publish(ASKED, Schema.encodeSync(Request)({ key, answer }))
        const stopped = yield* Deferred.await(answered).pipe(
          Effect.timeoutOption(ANSWER_WAIT),
          // Waiting for another process is real time, also under a test's clock.
          Effect.withClock(Clock.make()),
          Effect.ensuring(Effect.sync(() => waiting.delete(answer)))
        )
        return Option.isSome(stopped)
      })
    return { ask }
  })
