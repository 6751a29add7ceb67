/**
 * `LockSession` on PostgreSQL: session-level advisory locks on one connection of the
 * control plane's pool, kept out of the pool while it holds them. Locks belong to the
 * database, so two services on one server but different databases never meet. When the
 * connection fails, every lock on it is gone with it: each holder hears so at its next
 * check, and the next `take` opens a new one. Before the connection goes back to the pool
 * (the node stopping) its locks are let go, so a pooled connection never holds one.
 */
import { SqlClient } from "@effect/sql"
import type { SqlConnection } from "@effect/sql"
import { Effect, Exit, Layer, Option, Scope } from "effect"
import * as Leases from "./Leases.js"

/** Advisory locks take two 32-bit keys: this one for sluice's, the name's hash for the other. */
const NAMESPACE = 0x51_1c_e0

interface Session {
  readonly connection: SqlConnection.Connection
  readonly scope: Scope.CloseableScope
  ended: boolean
}

export const make = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const outer = yield* Effect.scope
  const mutex = yield* Effect.makeSemaphore(1)
  let current: Session | undefined

  const end = (session: Session) =>
    Effect.suspend(() => {
      session.ended = true
      if (current === session) current = undefined
      return Scope.close(session.scope, Exit.void)
    })

  const open = Effect.gen(function* () {
    const scope = yield* Scope.fork(outer, { _tag: "Sequential" })
    const connection = yield* sql.reserve.pipe(Scope.extend(scope))
    const session: Session = { connection, scope, ended: false }
    // Runs before the connection goes back to the pool (finalizers run last-added first).
    yield* Scope.addFinalizer(
      scope,
      Effect.ignore(connection.executeRaw("SELECT pg_advisory_unlock_all()", []))
    )
    return session
  })

  const ended = (session: Session) => Effect.zipRight(end(session), Effect.succeed(false))

  const stillHeld = (session: Session): Effect.Effect<boolean> =>
    session.ended
      ? Effect.succeed(false)
      : session.connection.executeRaw("SELECT 1", []).pipe(
          Effect.as(true),
          Effect.catchAll(() => ended(session))
        )

  const take = (name: string) =>
    mutex.withPermits(1)(
      Effect.gen(function* () {
        const session = current ?? (current = yield* open)
        const rows = yield* session.connection.executeValues(
          "SELECT pg_try_advisory_lock($1::int, hashtext($2))",
          [NAMESPACE, name]
        )
        return rows[0]?.[0] === true ? Option.some(stillHeld(session)) : Option.none()
      }).pipe(
        Effect.tapError(() => (current === undefined ? Effect.void : end(current))),
        Effect.catchAllCause((cause) =>
          Effect.as(
            Effect.logWarning("a background lease could not be taken", cause),
            Option.none()
          )
        )
      )
    )

  return { take } satisfies Leases.LockSession
})

/** `Leases` on the control plane's PostgreSQL. */
export const layer = Layer.scoped(
  Leases.Leases,
  Effect.map(make, (session) => Leases.make(session))
)
