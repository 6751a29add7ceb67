/**
 * Changes told to the other sluice processes on the same control plane, so that what
 * each one keeps derived from the control plane's or the engines' data (a cache) is
 * dropped on every node when it changes there. On PostgreSQL: `NOTIFY` on one channel,
 * which every node `LISTEN`s on. The embedded control plane serves one process, so its
 * layer tells no one.
 *
 * A notification is sent after the change is committed and arrives a moment later;
 * one lost with the listening connection is bounded by the caches' TTLs. That connection
 * is checked by a notification each node sends itself: one that does not come back in
 * time makes the node listen again on a new connection.
 */
import { randomUUID } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Context, Deferred, Duration, Effect, Layer, Schedule, Schema, Stream } from "effect"
import type { Scope } from "effect"

export type ChangeListener = (payload: string) => Effect.Effect<void>

export interface ControlPlaneEventsShape {
  /** Tells every other node of a change on `topic` (a small payload, under 7 KB). */
  readonly publish: (topic: string, payload: string) => Effect.Effect<void>
  /** Calls `listener` on every change another node publishes on `topic` while the scope is open. */
  readonly subscribe: (
    topic: string,
    listener: ChangeListener
  ) => Effect.Effect<void, never, Scope.Scope>
}

const CHANNEL = "sluice_changes"
const HEARTBEAT_TOPIC = "heartbeat"
const HEARTBEAT_EVERY = Duration.seconds(10)
const HEARTBEAT_WAIT = Duration.seconds(5)
const FIRST_ECHO_WAIT = Duration.millis(100)

const Notification = Schema.parseJson(
  Schema.Struct({ node: Schema.String, topic: Schema.String, payload: Schema.String })
)

// `pg_notify` rather than `NOTIFY`, which takes no bound parameter.
const notify = (sql: PgClient.PgClient, notification: typeof Notification.Type) =>
  Effect.asVoid(sql`SELECT pg_notify(${CHANNEL}, ${Schema.encodeSync(Notification)(notification)})`)

const makeListeners = () => {
  const byTopic = new Map<string, Set<ChangeListener>>()
  return {
    run: (topic: string, payload: string) =>
      Effect.forEach(byTopic.get(topic) ?? [], (listener) => listener(payload), {
        discard: true
      }),
    subscribe: (topic: string, listener: ChangeListener) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const listeners = byTopic.get(topic) ?? new Set()
          byTopic.set(topic, listeners.add(listener))
        }),
        () => Effect.sync(() => void byTopic.get(topic)?.delete(listener))
      )
  }
}

/** `LISTEN` on the channel until it fails or a heartbeat does not come back. */
const listenOnce = (
  sql: PgClient.PgClient,
  node: string,
  dispatch: (topic: string, payload: string) => Effect.Effect<void>,
  listening: Deferred.Deferred<void>
) =>
  Effect.gen(function* () {
    let echoed = yield* Deferred.make<void>()
    const beat = (wait: Duration.DurationInput) =>
      Effect.flatMap(Deferred.make<void>(), (back) =>
        Effect.sync(() => (echoed = back)).pipe(
          Effect.zipRight(notify(sql, { node, topic: HEARTBEAT_TOPIC, payload: "" })),
          Effect.zipRight(Deferred.await(back)),
          Effect.timeoutFail({
            duration: wait,
            onTimeout: () => new Error("the control plane's change notifications stopped")
          })
        )
      )
    const received = sql.listen(CHANNEL).pipe(
      Stream.mapEffect((text) =>
        Effect.flatMap(Effect.option(Schema.decode(Notification)(text)), (decoded) => {
          if (decoded._tag === "None") return Effect.void
          const { node: from, topic, payload } = decoded.value
          if (from !== node) return dispatch(topic, payload)
          return topic === HEARTBEAT_TOPIC ? Deferred.succeed(echoed, void 0) : Effect.void
        })
      ),
      Stream.runDrain,
      Effect.zipRight(Effect.fail(new Error("the control plane ended the listening connection")))
    )
    const heartbeats = Effect.gen(function* () {
      // The first echo says LISTEN is in place (a beat sent before that is not heard): the
      // node is told of changes from then on.
      yield* Effect.retry(beat(FIRST_ECHO_WAIT), Schedule.recurs(100))
      yield* Deferred.succeed(listening, void 0)
      yield* Effect.forever(Effect.zipRight(Effect.sleep(HEARTBEAT_EVERY), beat(HEARTBEAT_WAIT)))
    })
    // Disconnected: on a dead connection the stream's UNLISTEN may never answer, and
    // listening again must not wait for it.
    return yield* Effect.raceFirst(Effect.disconnect(received), heartbeats)
  }).pipe(
    Effect.scoped,
    // A defect (a finalizer's query on a dead connection) is a reason to listen again too.
    Effect.catchAllDefect((defect) =>
      Effect.fail(new Error(defect instanceof Error ? defect.message : String(defect)))
    )
  )

export class ControlPlaneEvents extends Context.Tag("sluice/ControlPlaneEvents")<
  ControlPlaneEvents,
  ControlPlaneEventsShape
>() {
  /** One process on its control plane: no one else to tell. */
  static readonly local = Layer.sync(ControlPlaneEvents, () => {
    const listeners = makeListeners()
    return ControlPlaneEvents.of({ publish: () => Effect.void, subscribe: listeners.subscribe })
  })

  /** Nodes sharing a PostgreSQL control plane; ready once this node listens. */
  static readonly postgres = Layer.scoped(
    ControlPlaneEvents,
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      const node = randomUUID()
      const listeners = makeListeners()
      const listening = yield* Deferred.make<void>()
      yield* listenOnce(sql, node, listeners.run, listening).pipe(
        Effect.tapError((error) =>
          Effect.logWarning(`listening for other nodes' changes again: ${error.message}`)
        ),
        Effect.retry(Schedule.spaced(Duration.seconds(1))),
        Effect.forkScoped
      )
      yield* Deferred.await(listening)
      return ControlPlaneEvents.of({
        publish: (topic, payload) =>
          notify(sql, { node, topic, payload }).pipe(
            Effect.catchAll((error) =>
              Effect.logWarning(`could not tell other nodes of a change: ${error.message}`)
            )
          ),
        subscribe: listeners.subscribe
      })
    })
  )
}
