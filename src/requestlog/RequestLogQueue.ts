/**
 * Hands finished requests' log records to the control plane off the request path. A
 * bounded in-memory queue is drained by one background fiber that writes in batches;
 * recording never waits and never fails. When the queue is full (the control plane
 * cannot keep up) new records are DROPPED and counted rather than slowing requests or
 * growing memory; the count is logged. Shutdown flushes what is queued.
 */
import { Effect, Fiber, Queue } from "effect"
import type { LogRecord } from "./LogRecord.js"
import { RequestLogStore } from "./RequestLogStore.js"

const CAPACITY = 10_000
const BATCH = 500
// A pause after each write lets records gather into batches, so the log costs the
// (possibly single-connection, in-process) control plane a few inserts a second at most:
// each insert is CPU on the server's own thread (a longer pause cost each request less
// of it). Entries show up in the log at most this much later.
const LINGER = "250 millis"

export class RequestLogQueue extends Effect.Service<RequestLogQueue>()("sluice/RequestLogQueue", {
  scoped: Effect.gen(function* () {
    const store = yield* RequestLogStore
    const queue = yield* Queue.dropping<LogRecord>(CAPACITY)
    let dropped = 0
    let droppedTotal = 0

    // A failed batch is lost, not retried: the log must not back up behind a sick store.
    const write = (batch: Iterable<LogRecord>) =>
      store.write([...batch]).pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning("request log batch lost", cause).pipe(
            Effect.annotateLogs("records", [...batch].length)
          )
        ),
        Effect.uninterruptible
      )

    const reportDrops = Effect.suspend(() => {
      if (dropped === 0) return Effect.void
      const count = dropped
      dropped = 0
      return Effect.logWarning("request log queue full; records dropped").pipe(
        Effect.annotateLogs("dropped", count)
      )
    })

    const drain = Queue.takeBetween(queue, 1, BATCH).pipe(
      Effect.flatMap(write),
      Effect.zipRight(reportDrops),
      Effect.zipRight(Effect.sleep(LINGER)),
      Effect.forever
    )
    // Batches stay under PostgreSQL's 65,535 bind parameters (35 columns a row).
    const flush: Effect.Effect<void> = Queue.takeUpTo(queue, BATCH).pipe(
      Effect.flatMap((batch) =>
        batch.length === 0 ? Effect.void : Effect.zipRight(write(batch), flush)
      )
    )
    const fiber = yield* Effect.forkDaemon(drain)
    yield* Effect.addFinalizer(() =>
      Fiber.interrupt(fiber).pipe(Effect.zipRight(flush), Effect.zipRight(reportDrops))
    )

    return {
      /** Never blocks: a full queue drops the record (counted). */
      record: (record: LogRecord) =>
        Effect.map(Queue.offer(queue, record), (accepted) => {
          if (!accepted) {
            dropped++
            droppedTotal++
          }
        }),
      /** Records waiting to be written. */
      pending: Queue.size(queue),
      /** Records dropped because the queue was full, since start. */
      dropped: Effect.sync(() => droppedTotal)
    }
  })
}) {}
