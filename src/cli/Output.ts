/**
 * Data goes to stdout at the pace the reader takes it (a slow pipe holds the download,
 * memory stays flat); messages go to stderr. A reader that went away (`| head`) ends the
 * program quietly, as other command-line tools do.
 */
import { Effect } from "effect"

process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(0)
  throw e
})

export const stdoutIsTTY = () => process.stdout.isTTY === true
export const stderrIsTTY = () => process.stderr.isTTY === true
export const stdinIsTTY = () => process.stdin.isTTY === true

/** Writes to stdout, waiting for it to drain when its buffer is full. */
export const write = (chunk: string | Uint8Array) =>
  Effect.async<void>((resume) => {
    if (process.stdout.write(chunk)) resume(Effect.void)
    else process.stdout.once("drain", () => resume(Effect.void))
  })

export const line = (text: string) => write(`${text}\n`)

export const errorLine = (text: string) => Effect.sync(() => process.stderr.write(`${text}\n`))

/** ANSI styling, only for a terminal that wants it. */
const styled = (code: string) => (text: string) =>
  process.stderr.isTTY === true && process.env.NO_COLOR === undefined
    ? `\x1b[${code}m${text}\x1b[0m`
    : text
export const dim = styled("2")
export const bold = styled("1")
export const red = styled("31")

/** A failure as the CLI prints it: `error:` and its message, then `hint:` when it has one. */
export const errorText = (error: { readonly message: string; readonly hint: string }) =>
  `${red(bold("error:"))} ${error.message}\n${error.hint === "" ? "" : `${bold("hint:")} ${error.hint}\n`}`
