/**
 * `EventCollector` over the data plane: bodies are checked whole by pure code (Envelope,
 * EnvelopeBatch, RawLines) before the one write through the `IngestWriter`, so a refused
 * request stores nothing. Where events land is decided as for OTLP (`AppAccess`):
 * insert permission, the app gate, the selected database, a serving cluster.
 */
import { Effect, Layer, Schema } from "effect"
import { AppAccess } from "../../domain/AppAccess.js"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Engines } from "../../domain/Engine.js"
import { CollectorRefusal, EventCollector } from "../../domain/EventCollector.js"
import type { CollectorTarget, EventDefaults, RawMetadata } from "../../domain/EventCollector.js"
import type { AppParams } from "../../domain/AppAccess.js"
import type { Caller } from "../../domain/Identity.js"
import { TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { SPL_EVENTS_TABLE } from "../../domain/SplEvent.js"
import type { SplEvent } from "../../domain/SplEvent.js"
import { eventsOf } from "./EnvelopeBatch.js"
import { rawEventsOf } from "./RawLines.js"

const table = Schema.decodeSync(TableName)(SPL_EVENTS_TABLE)

const refusal = (code: 1 | 7 | 9, detail: string) => new CollectorRefusal({ code, detail })

export const EventCollectorLive = Layer.effect(
  EventCollector,
  Effect.gen(function* () {
    const access = yield* AppAccess
    const apps = yield* AppRegistry
    const engines = yield* Engines
    const writer = yield* IngestWriter

    const parseEvents = Effect.fn("EventCollector.parseEvents")(function* (
      body: Uint8Array,
      defaults: EventDefaults
    ) {
      return yield* eventsOf(body, defaults)
    })

    const parseRaw = Effect.fn("EventCollector.parseRaw")(function* (
      body: Uint8Array,
      metadata: RawMetadata,
      defaults: EventDefaults
    ) {
      return yield* rawEventsOf(body, metadata, defaults)
    })

    const target = Effect.fn("EventCollector.target")(function* (caller: Caller, where: AppParams) {
      const { scope, database } = yield* access.enter(caller, "insert", AppIds.spl, where).pipe(
        Effect.catchTags({
          // A known key that may not insert is closest to the protocol's disabled token
          // (403 code 1): the token exists but cannot send events here. Code 4 would tell
          // the operator the token itself is wrong.
          Forbidden: (e) => Effect.fail(refusal(1, e.message)),
          // A user credential naming no cluster, or one it cannot see.
          BadRequest: (e) => Effect.fail(refusal(1, e.message)),
          NotFound: (e) => Effect.fail(refusal(1, e.message)),
          // The database stands where Splunk has the index: a missing one is "Incorrect index".
          InvalidDatabaseName: (e) => Effect.fail(refusal(7, e.message)),
          DatabaseNotFound: (e) => Effect.fail(refusal(7, e.message))
        })
      )
      // A cluster not serving now (paused, starting) is "Server is busy": senders retry it.
      yield* engines.forCluster(scope.clusterId).pipe(Effect.mapError((e) => refusal(9, e.message)))
      return { scope, database } satisfies CollectorTarget
    })

    const requireApp = Effect.fn("EventCollector.requireApp")(function* (caller: Caller) {
      if (caller._tag === "ApiKeyCaller") yield* apps.require(caller.clusterId, AppIds.spl)
    })

    // Not a generator holding `events` while the engine works: the writer keeps only
    // their bytes (IngestWriterLive.ts says why).
    const store = (at: CollectorTarget, events: ReadonlyArray<SplEvent>) =>
      apps.require(at.scope.clusterId, AppIds.spl).pipe(
        Effect.zipRight(writer.insertEvents(at.scope, at.database, table, events)),
        Effect.map((outcome) => outcome.inserted),
        Effect.catchTags({
          Unavailable: (e) => Effect.fail(refusal(9, e.message)),
          ClusterPaused: (e) => Effect.fail(refusal(9, e.message)),
          // Events are checked before the write; the engine refusing them is ours.
          MalformedRecords: (e) => Effect.die(e),
          InsertTokenReused: (e) => Effect.die(e)
        }),
        Effect.withSpan("EventCollector.store")
      )

    return EventCollector.of({ parseEvents, parseRaw, target, requireApp, store })
  })
)
