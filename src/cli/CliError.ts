/**
 * What the command line reports when a command fails: one line of message, one of hint,
 * and the exit code (1 a server or usage error, 2 bad usage, 130 interrupted). Never a
 * stack trace.
 */
import { Data } from "effect"

export class CliError extends Data.TaggedError("CliError")<{
  readonly message: string
  readonly hint: string
  readonly exitCode: 1 | 2 | 130
}> {}

/** A server or environment failure (exit 1). */
export const failure = (message: string, hint = "") => new CliError({ message, hint, exitCode: 1 })

/** The command line itself was wrong (exit 2). */
export const badUsage = (message: string, hint = "") => new CliError({ message, hint, exitCode: 2 })

const FILE_ERRORS: Record<string, string> = {
  ENOENT: "no such file or directory",
  EACCES: "permission denied",
  EISDIR: "it is a directory",
  ENOTDIR: "a part of the path is not a directory"
}

/** A file the command was given that cannot be read, in words rather than an errno code. */
export const cannotRead = (path: string, error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code
  const reason = code === undefined ? String(error) : (FILE_ERRORS[code] ?? code)
  return failure(`Cannot read ${path}: ${reason}.`)
}
