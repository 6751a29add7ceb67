/**
 * Why the compiler refuses a search, raised from the pure code where it is found and
 * turned into `SplRefused` at the service's edge (SplCompilerLive.ts).
 */
import { Data } from "effect"

export class Refusal extends Data.TaggedError("Refusal")<{
  readonly command: string
  readonly position: number
  readonly reason: string
}> {}

/** Throws a `Refusal`: the compiler's one way out of the subset. */
export const refuse = (command: string, position: number, reason: string): never => {
  throw new Refusal({ command, position, reason })
}
