/**
 * The first elements of a stream, and the stream again: a body that ends within them
 * can take a one-message or one-statement path. Pulled by hand (`Stream.peel` forks a
 * fiber for the rest, which cost 0.6 ms an insert).
 */
import { Effect, Either, Option, Stream } from "effect"

export interface LookedAhead<A, E, R> {
  /** The elements read until `enough` held, or the stream ended. */
  readonly ahead: ReadonlyArray<A>
  readonly ended: boolean
  /** Every element: `ahead`, then the rest. */
  readonly all: Stream.Stream<A, E, R>
}

export const lookAhead = <A, E, R>(
  stream: Stream.Stream<A, E, R>,
  enough: (ahead: ReadonlyArray<A>) => boolean
) =>
  Effect.gen(function* () {
    const pull = yield* Stream.toPull(stream)
    const ahead: Array<A> = []
    let ended = false
    while (!ended && !enough(ahead)) {
      const next = yield* Effect.either(pull)
      if (Either.isRight(next)) ahead.push(...next.right)
      else if (Option.isNone(next.left)) ended = true
      else return yield* Effect.fail(next.left.value)
    }
    const rest = ended ? Stream.empty : Stream.repeatEffectChunkOption(pull)
    const looked: LookedAhead<A, E, R> = {
      ahead,
      ended,
      all: Stream.concat(Stream.fromIterable(ahead), rest)
    }
    return looked
  })
