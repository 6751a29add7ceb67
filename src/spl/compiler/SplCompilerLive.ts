/** The SPL compiler: pure code, so a constant layer (like EventTransformsLive). */
import { Clock, Effect, Layer } from "effect"
import { SplRefused } from "../../../domain/Errors.js"
import { SplCompiler } from "../../../domain/SplCompiler.js"
import type { SearchWindow } from "../../../domain/SplCompiler.js"
import { compileSearch } from "./Compile.js"
import { Refusal } from "./Refusal.js"
import { COMMANDS } from "./Commands.js"

const compile = Effect.fn("SplCompiler.compile")(function* (
  spl: string,
  window: SearchWindow,
  storedFields: ReadonlyArray<string> = []
) {
  const now = yield* Clock.currentTimeMillis
  return yield* Effect.try({
    try: () => compileSearch(spl, window, now, storedFields),
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) =>
      error instanceof Refusal
        ? Effect.fail(
            new SplRefused({
              message: `${error.command} (position ${error.position}): ${error.reason}`,
              hint: `The subset's commands: ${COMMANDS.join(", ")}.`,
              command: error.command,
              position: error.position
            })
          )
        : Effect.die(error)
    )
  )
})

export const SplCompilerLive = Layer.succeed(SplCompiler, SplCompiler.of({ compile }))
