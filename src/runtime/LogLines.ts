/**
 * The service's log without stack traces: a failure logged with its cause shows it as a
 * `cause` annotation naming each error and its message's first line, where Effect's
 * loggers print the cause's stack trace (a dozen lines of paths for a timed-out engine
 * call). Applied to whichever loggers run (the pretty one under
 * `npm start`, logfmt elsewhere), so their format stays theirs.
 */
import { Cause, Effect, FiberRef, HashMap, HashSet, Layer, Logger } from "effect"

const firstLine = (text: string) => text.split("\n", 1)[0]!.trim()

const describe = (error: unknown): string => {
  if (error instanceof Error) return firstLine(`${error.name}: ${error.message}`)
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const message = "message" in error ? `: ${String(error.message)}` : ""
    return firstLine(`${String(error._tag)}${message}`)
  }
  return firstLine(String(error))
}

/** A cause in one line: its failures and defects, and whether it was interrupted. */
export const causeLine = (cause: Cause.Cause<unknown>): string => {
  const parts = [...Cause.failures(cause), ...Cause.defects(cause)].map(describe)
  if (parts.length === 0 && Cause.isInterrupted(cause)) parts.push("interrupted")
  return parts.join("; ")
}

/** `logger` with causes as a one-line annotation. */
export const withoutStacks = <Message, Output>(
  logger: Logger.Logger<Message, Output>
): Logger.Logger<Message, Output> =>
  Logger.make((options) =>
    logger.log(
      Cause.isEmpty(options.cause)
        ? options
        : {
            ...options,
            cause: Cause.empty,
            annotations: HashMap.set(options.annotations, "cause", causeLine(options.cause))
          }
    )
  )

/** Every logger the service's fibers run with, without stacks. */
export const layer: Layer.Layer<never> = Layer.scopedDiscard(
  Effect.locallyScopedWith(FiberRef.currentLoggers, (loggers) =>
    HashSet.map(loggers, (logger) => withoutStacks(logger))
  )
)
