/**
 * Background work that runs on one node at a time: each job runs only while its node
 * holds the job's lease, and another node takes the lease (and the work) once the holder
 * is gone. The embedded control plane serves one process, which always holds every lease.
 *
 * On PostgreSQL a lease is a session-level advisory lock on one connection the node keeps
 * for its leases (AdvisoryLocks.ts). PostgreSQL frees it as soon as that connection ends,
 * and a process killed by `kill -9` has its sockets closed by the kernel, so the work
 * moves at the next attempt of another node with no expiry to wait out and no clocks to
 * agree on. A lease row with an expiry survives a kill too, but only after its expiry, and
 * needs a renewal in time from every holder, whose pause (a long GC, a stopped VM) past
 * the expiry leaves two nodes running the job.
 */
import { Context, Effect, Layer, Option, Schedule } from "effect"
import type { Duration, Scope } from "effect"

/** Where leases are taken: a lock named once per job, free or held by one node. */
export interface LockSession {
  /**
   * Takes the lock `name` if no node holds it: then `Some(stillHeld)`, which answers
   * whether this node still holds it (false once the session that took it has ended).
   */
  readonly take: (name: string) => Effect.Effect<Option.Option<Effect.Effect<boolean>>>
}

export interface LeaseTiming {
  /** How often a node that does not hold a lease tries to take it. */
  readonly retry: Duration.DurationInput
  /** How often the holder checks that it still holds it. */
  readonly check: Duration.DurationInput
}

export const DEFAULT_TIMING: LeaseTiming = { retry: "2 seconds", check: "2 seconds" }

export class Leases extends Context.Tag("sluice/Leases")<
  Leases,
  {
    /**
     * Runs `job` (work meant to run forever, its failures its own) in the enclosing scope
     * whenever this node holds the lease `name`; interrupted when the lease is lost.
     */
    readonly run: <E, R>(
      name: string,
      job: Effect.Effect<unknown, E, R>
    ) => Effect.Effect<void, never, Scope.Scope | R>
  }
>() {}

/** The loop of one job: take the lease, run while held, start over when it is lost. */
export const whileHeld = <E, R>(
  session: LockSession,
  name: string,
  job: Effect.Effect<unknown, E, R>,
  timing: LeaseTiming
): Effect.Effect<never, never, R> => {
  const holding = (stillHeld: Effect.Effect<boolean>) =>
    Effect.gen(function* () {
      yield* Effect.logInfo(`background work '${name}' runs on this node`)
      const lost = Effect.repeat(stillHeld, {
        schedule: Schedule.spaced(timing.check),
        while: (held) => held
      })
      const work = job.pipe(
        Effect.catchAllCause((cause) =>
          Effect.logWarning(`background work '${name}' failed`, cause)
        ),
        Effect.zipRight(Effect.never)
      )
      yield* Effect.race(work, lost)
      yield* Effect.logWarning(`background work '${name}' stopped here: its lease was lost`)
    })
  return session.take(name).pipe(
    Effect.flatMap(
      Option.match({
        onNone: () => Effect.sleep(timing.retry),
        onSome: holding
      })
    ),
    Effect.forever
  )
}

/** Leases on `session`. */
export const make = (session: LockSession, timing: LeaseTiming = DEFAULT_TIMING) =>
  Leases.of({
    run: (name, job) => Effect.asVoid(Effect.forkScoped(whileHeld(session, name, job, timing)))
  })

/** The single node's leases: every job runs, always. */
export const always = Layer.succeed(
  Leases,
  Leases.of({ run: (_name, job) => Effect.asVoid(Effect.forkScoped(job)) })
)
