/**
 * The service's log keeps a failure's cause to one line: each error's name and the first
 * line of its message, no stack trace, whatever logger writes it.
 */
import { describe, expect, it } from "@effect/vitest"
import { Cause, Effect, Layer, Logger } from "effect"
import * as LogLines from "../../src/runtime/LogLines.js"

const logged = (program: Effect.Effect<void>) =>
  Effect.gen(function* () {
    const lines: Array<string> = []
    const capture = Logger.logfmtLogger.pipe(Logger.map((line) => lines.push(line)))
    // As the service runs: the transports' layers over LogLines, the logger outside.
    yield* Effect.scoped(
      Layer.build(Layer.effectDiscard(program).pipe(Layer.provide(LogLines.layer)))
    ).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
    return lines
  })

describe("LogLines", () => {
  it.live("a timed-out call logs one line naming the timeout, no stack", () =>
    Effect.gen(function* () {
      const lines = yield* logged(
        Effect.never.pipe(
          Effect.timeout("1 millis"),
          Effect.catchAllCause((cause) =>
            Effect.logWarning("cluster metrics sampling failed", cause)
          )
        )
      )
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain('message="cluster metrics sampling failed"')
      expect(lines[0]).toMatch(/cause="TimeoutException: Operation timed out after '1ms'"/)
      expect(lines[0]).not.toMatch(/\n|    at |node_modules/)
    })
  )

  it.effect("failures and defects each by name and first line; interruption named", () =>
    Effect.sync(() => {
      const both = Cause.parallel(
        Cause.fail({ _tag: "EngineError", message: "engine process gone\nsecond line" }),
        Cause.die(new TypeError("x is not a function"))
      )
      expect(LogLines.causeLine(both)).toBe(
        "EngineError: engine process gone; TypeError: x is not a function"
      )
      expect(LogLines.causeLine(Cause.interrupt(Symbol() as never))).toBe("interrupted")
    })
  )
})
