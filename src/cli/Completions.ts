/**
 * `sluice --completions bash|zsh|fish`: @effect/cli's scripts, with two of its slips put
 * right. Its bash script matches a word below a subcommand against the parent's path
 * (`sluice,clusters,metrics` where the running name is `sluice__clusters`), and a
 * hyphenated command against its function name (`saved__searches`), so neither ever
 * completed; its zsh script calls `_sluice__saved-searches_commands` but defines
 * `_sluice__saved__searches_commands`.
 */
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"

export const SHELLS = ["bash", "zsh", "fish", "sh"] as const
export type Shell = (typeof SHELLS)[number]
export const isShell = (name: string): name is Shell => SHELLS.some((shell) => shell === name)

const fixBash = (script: string) =>
  script.replace(/^(\s+)([\w-]+(?:,[\w-]+)+)\)$/gm, (_, indent: string, words: string) => {
    const parts = words.split(",")
    const word = parts.pop()!.replace(/__/g, "-")
    return `${indent}${parts.join("__")},${word})`
  })

const fixZsh = (script: string) =>
  script.replace(
    /_(sluice(?:__[\w-]+)+)_commands\b/g,
    (_, name: string) => `_${name.replace(/-/g, "__")}_commands`
  )

export const script = <Name extends string, R, E, A>(
  root: Command.Command<Name, R, E, A>,
  shell: Shell
) =>
  shell === "zsh"
    ? Effect.map(Command.getZshCompletions(root, "sluice"), (lines) => fixZsh(lines.join("\n")))
    : shell === "fish"
      ? Effect.map(Command.getFishCompletions(root, "sluice"), (lines) => lines.join("\n"))
      : Effect.map(Command.getBashCompletions(root, "sluice"), (lines) => fixBash(lines.join("\n")))
