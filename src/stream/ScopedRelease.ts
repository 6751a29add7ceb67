/**
 * `Effect.acquireRelease` for releases that read nothing from the fiber that runs them
 * (they close over what they free). `Effect.acquireRelease` runs its release under the
 * acquiring fiber's refs, restoring them by diffing the closing fiber's refs, the whole
 * service context among them, against them both ways: on the small query's path, whose
 * statement, result and registration have four such releases, those diffs were a visible
 * share of a node's CPU (profiled). Here the release is added to the scope as it is, and runs
 * uninterruptibly, as acquireRelease's does.
 */
import { Effect, Scope } from "effect"
import type { Exit } from "effect"

export const acquireRelease = <A, E, R>(
  acquire: Effect.Effect<A, E, R>,
  release: (a: A, exit: Exit.Exit<unknown, unknown>) => Effect.Effect<unknown>
): Effect.Effect<A, E, R | Scope.Scope> =>
  Effect.uninterruptible(
    Effect.flatMap(Effect.scope, (scope) =>
      Effect.tap(acquire, (a) =>
        Scope.addFinalizerExit(scope, (exit) => Effect.uninterruptible(release(a, exit)))
      )
    )
  )

/** `Effect.addFinalizer`, on the same terms as `acquireRelease`. */
export const addFinalizer = (
  release: (exit: Exit.Exit<unknown, unknown>) => Effect.Effect<unknown>
): Effect.Effect<void, never, Scope.Scope> =>
  Effect.flatMap(Effect.scope, (scope) =>
    Scope.addFinalizerExit(scope, (exit) => Effect.uninterruptible(release(exit)))
  )
