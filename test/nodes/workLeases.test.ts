/**
 * Leases on a real PostgreSQL (`SLUICE_TEST_POSTGRES_URL`): two nodes' lock sessions on
 * one database. One holds a lease at a time; the other takes it once the holder's
 * connection is gone, whether the holder stopped or its backend was terminated.
 */
import { describe, expect, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Layer, Option, Redacted, Scope } from "effect"
import * as AdvisoryLocks from "../../src/store/AdvisoryLocks.js"
import { databaseFor, onServer } from "../support/controlPlane.js"
import { freshDataDir } from "../support/server.js"

/** A node's lock session on its own pool, alive until `stop`. */
const nodeOn = (url: string) =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const pool = yield* Layer.buildWithScope(
      PgClient.layer({ url: Redacted.make(url) }).pipe(Layer.orDie),
      scope
    )
    const session = yield* AdvisoryLocks.make.pipe(Effect.provide(pool), Scope.extend(scope))
    return { session, stop: Scope.close(scope, Exit.void) }
  })

const holds = (taken: Option.Option<Effect.Effect<boolean>>) =>
  Option.match(taken, { onNone: () => Effect.succeed(false), onSome: (held) => held })

describe("leases on PostgreSQL", () => {
  it.live(
    "one node holds a lease; the other takes it when the holder stops or its connection dies",
    () =>
      Effect.gen(function* () {
        const url = yield* databaseFor(freshDataDir("sluice-leases"))
        const a = yield* nodeOn(url)
        const b = yield* nodeOn(url)

        const taken = yield* a.session.take("sweep")
        expect(yield* holds(taken)).toBe(true)
        expect(Option.isNone(yield* b.session.take("sweep"))).toBe(true)
        // Another lease is its own.
        expect(yield* holds(yield* b.session.take("retention"))).toBe(true)

        yield* a.stop
        const moved = yield* b.session.take("sweep")
        expect(yield* holds(moved)).toBe(true)

        // B's connection is cut from the server's side: its leases are gone, and A (started
        // again) takes them, while B hears it no longer holds them.
        const again = yield* nodeOn(url)
        const database = new URL(url).pathname.slice(1)
        yield* onServer(
          `SELECT pg_terminate_backend(pid) FROM pg_locks JOIN pg_database d ON d.oid = database ` +
            `WHERE locktype = 'advisory' AND d.datname = '${database}'`
        )
        expect(yield* holds(moved)).toBe(false)
        expect(yield* holds(yield* again.session.take("sweep"))).toBe(true)
        expect(yield* holds(yield* again.session.take("retention"))).toBe(true)
        // B opens a new session and finds them held.
        expect(Option.isNone(yield* b.session.take("sweep"))).toBe(true)
        yield* again.stop
        yield* b.stop
      })
  )
})
