/**
 * The first elements of a stream, and the stream again: a body that ends within them
 * can take a one-message or one-statement path. Pulled by hand (`Stream.peel` forks a
 * fiber for the rest, a cost on every insert).
 */
import { Chunk as ChunkOf, Effect, Either, Option, Stream } from "effect"
import type { Chunk, Scope } from "effect"

export interface LookedAhead<A, E, R> {
  /** The elements read until `enough` held, or the stream ended. */
  readonly ahead: ReadonlyArray<A>
  readonly ended: boolean
  /** Every element: `ahead`, then the rest. */
  readonly all: Stream.Stream<A, E, R>
}

/**
 * Elements as `Stream.toPull` gives them: a chunk per read (possibly empty), failing with
 * `None` at the end. A stage written as a pull (see `BodyInsert`) costs a function call
 * per read where a stream stage costs a run of its own.
 */
export type Pull<A, E, R = never> = Effect.Effect<Chunk.Chunk<A>, Option.Option<E>, R>

/** The elements of `items`, one per read. */
export const pullIterator = <A>(items: Iterator<A>): Pull<A, never> =>
  Effect.suspend(() => {
    const next = items.next()
    return next.done === true ? Effect.fail(Option.none()) : Effect.succeed(ChunkOf.of(next.value))
  })

export const lookAheadPull = <A, E, R>(
  pull: Pull<A, E, R>,
  enough: (ahead: ReadonlyArray<A>) => boolean
): Effect.Effect<LookedAhead<A, E, R>, E, R> =>
  Effect.gen(function* () {
    const ahead: Array<A> = []
    let ended = false
    while (!ended && !enough(ahead)) {
      const next = yield* Effect.either(pull)
      if (Either.isRight(next)) ahead.push(...next.right)
      else if (Option.isNone(next.left)) ended = true
      else return yield* Effect.fail(next.left.value)
    }
    const rest = ended ? Stream.empty : Stream.repeatEffectChunkOption(pull)
    return { ahead, ended, all: Stream.concat(Stream.fromIterable(ahead), rest) }
  })

export const lookAhead = <A, E, R>(
  stream: Stream.Stream<A, E, R>,
  enough: (ahead: ReadonlyArray<A>) => boolean
): Effect.Effect<LookedAhead<A, E, R>, E, R | Scope.Scope> =>
  Effect.flatMap(Stream.toPull(stream), (pull) => lookAheadPull(pull, enough))
