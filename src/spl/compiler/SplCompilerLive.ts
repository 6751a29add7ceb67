/** The SPL compiler: pure code, so a constant layer (like EventTransformsLive). */
import { Clock, Effect, Layer } from "effect"
import { SplRefused } from "../../../domain/Errors.js"
import { SplCompiler } from "../../../domain/SplCompiler.js"
import type { CompiledSearch, SearchWindow } from "../../../domain/SplCompiler.js"
import { compileSearch, compileTable } from "./Compile.js"
import { Refusal } from "./Refusal.js"
import { COMMANDS } from "./Commands.js"

/** `compiling` at the Clock's now; its refusal as `SplRefused`, anything else a defect. */
const compiled = (compiling: (now: number) => CompiledSearch) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.try({
      try: () => compiling(now),
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
  )

const compile = Effect.fn("SplCompiler.compile")(function* (
  spl: string,
  window: SearchWindow,
  storedFields: ReadonlyArray<string> = []
) {
  return yield* compiled((now) => compileSearch(spl, window, now, storedFields))
})

const compileFieldTable = Effect.fn("SplCompiler.compileFieldTable")(function* (
  spl: string,
  window: SearchWindow,
  storedFields: ReadonlyArray<string>,
  population: number,
  fields: ReadonlyArray<string>
) {
  return yield* compiled((now) => compileTable(spl, window, now, storedFields, population, fields))
})

export const SplCompilerLive = Layer.succeed(
  SplCompiler,
  SplCompiler.of({ compile, compileFieldTable })
)
