/**
 * Partial test doubles: a service of which a test implements only the methods it needs.
 * Calling any other method is a defect naming it, so a test never passes by accident
 * through a method it did not mean to reach.
 */
import { Effect, Layer } from "effect"
import type { Context } from "effect"

export const partial = <I, S extends object>(
  tag: Context.Tag<I, S>,
  implemented: Partial<S>
): Layer.Layer<I> =>
  Layer.succeed(
    tag,
    new Proxy(implemented, {
      get: (target, name) =>
        name in target
          ? Reflect.get(target, name)
          : typeof name === "string"
            ? () => Effect.dieMessage(`${tag.key}.${name} is not provided by this test double`)
            : undefined
    }) as S
  )
