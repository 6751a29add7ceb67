/** Reading what is piped in, and asking at a terminal. */
import * as Prompt from "@effect/cli/Prompt"
import { Effect, Redacted } from "effect"
import { CliError } from "./CliError.js"
import { stdinIsTTY } from "./Output.js"

export const readAll = Effect.async<string>((resume) => {
  const chunks: Array<Buffer> = []
  process.stdin.on("data", (chunk: Buffer) => chunks.push(chunk))
  process.stdin.on("end", () => resume(Effect.succeed(Buffer.concat(chunks).toString("utf8"))))
})

const quit = () => new CliError({ message: "Cancelled.", hint: "", exitCode: 130 })

/** A secret: the first line of stdin when piped, else typed at a prompt that echoes nothing. */
export const secret = (message: string) =>
  stdinIsTTY()
    ? Prompt.hidden({ message }).pipe(Effect.map(Redacted.value), Effect.mapError(quit))
    : Effect.map(readAll, (text) => text.split(/\r?\n/)[0]!.trim())

export const askText = (message: string) => Prompt.text({ message }).pipe(Effect.mapError(quit))

export const confirm = (message: string) =>
  Prompt.confirm({ message, initial: false }).pipe(Effect.mapError(quit))
