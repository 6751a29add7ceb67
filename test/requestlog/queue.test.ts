/**
 * The write queue in isolation (an in-memory store): recording never waits on the
 * store, records arrive in order in batches, and shutdown flushes what is queued.
 */
import { describe, expect, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Layer, Scope } from "effect"
import { LogRecord } from "../../src/requestlog/LogRecord.js"
import { RequestLogQueue } from "../../src/requestlog/RequestLogQueue.js"
import { RequestLogStore } from "../../src/requestlog/RequestLogStore.js"

const record = (i: number) =>
  LogRecord.make({
    id: String(i).padStart(16, "0"),
    trace_id: "0".repeat(32),
    parent_span_id: "",
    created_at: new Date(0),
    organization_id: null,
    cluster_id: null,
    organization: null,
    cluster: null,
    method: "GET",
    host: "",
    path: "/",
    route: null,
    status_code: 200,
    level: "success",
    source: "api",
    duration_ms: 1,
    handler_ms: 1,
    user_agent: null,
    client_version: null,
    headers: "{}",
    content_encoding: "",
    request_size_bytes: 0,
    response_size_bytes: 0,
    database: null,
    key_name: null,
    user_id: null,
    user_email: null,
    url_query: null,
    request_body: null,
    error_code: null,
    error_message: null,
    error_hint: null,
    request_type: "",
    tables: [],
    has_hints: false
  })

describe("RequestLogQueue", () => {
  it.effect("records without waiting for a slow store and flushes everything on shutdown", () =>
    Effect.gen(function* () {
      const written: Array<string> = []
      const batches: Array<number> = []
      const release = yield* Deferred.make<void>()
      const store = Layer.succeed(
        RequestLogStore,
        RequestLogStore.make({
          write: (records) =>
            Effect.gen(function* () {
              // The first batch is held until the test has recorded everything.
              if (batches.length === 0) yield* Deferred.await(release)
              batches.push(records.length)
              written.push(...records.map((r) => r.id))
            }),
          list: () => Effect.die("unused"),
          prune: () => Effect.die("unused")
        })
      )
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        RequestLogQueue.Default.pipe(Layer.provide(store)),
        scope
      )
      const queue = Context.get(context, RequestLogQueue)
      for (let i = 0; i < 1200; i++) yield* queue.record(record(i))
      yield* Deferred.succeed(release, undefined)
      yield* Scope.close(scope, Exit.void)
      expect(written).toEqual(Array.from({ length: 1200 }, (_, i) => record(i).id))
      expect(Math.max(...batches)).toBeLessThanOrEqual(500)
    })
  )

  it.effect("a full queue drops and counts new records instead of waiting", () =>
    Effect.gen(function* () {
      const release = yield* Deferred.make<void>()
      let written = 0
      const store = Layer.succeed(
        RequestLogStore,
        RequestLogStore.make({
          write: (records) =>
            Effect.zipRight(
              Deferred.await(release),
              Effect.sync(() => {
                written += records.length
              })
            ),
          list: () => Effect.die("unused"),
          prune: () => Effect.die("unused")
        })
      )
      const scope = yield* Scope.make()
      const context = yield* Layer.buildWithScope(
        RequestLogQueue.Default.pipe(Layer.provide(store)),
        scope
      )
      const queue = Context.get(context, RequestLogQueue)
      yield* queue.record(record(0))
      // Let the drain take the first record into its (held) batch.
      while ((yield* queue.pending) > 0) yield* Effect.yieldNow()
      for (let i = 1; i <= 10_100; i++) yield* queue.record(record(i))
      expect(yield* queue.dropped).toBe(100)
      yield* Deferred.succeed(release, undefined)
      yield* Scope.close(scope, Exit.void)
      expect(written).toBe(10_001)
    })
  )
})
