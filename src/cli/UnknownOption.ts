/**
 * An option a command does not take (`sluice keys create --permisson read_only ci`). The
 * parser reads an option-shaped word it does not know as the command's next argument when
 * one is free, so a mistyped flag became the key's name; the words are checked against the
 * command's own usage before parsing. A word with a space or a newline (SQL, a search) or
 * after `--` is an argument, as is a negative number.
 */
import * as Command from "@effect/cli/Command"
import * as Descriptor from "@effect/cli/CommandDescriptor"
import type * as Usage from "@effect/cli/Usage"
import { HashMap, HashSet, Option } from "effect"
import { nearest } from "../../domain/Suggestions.js"

type AnyCommand = Command.Command<string, unknown, unknown, unknown>

const OPTION_WORD = /^--?[A-Za-z][\w-]*(=.*)?$/s

/** The parser's own options, which every command takes. */
const BUILT_IN: ReadonlyArray<readonly [string, boolean]> = [
  ["--help", false],
  ["-h", false],
  ["--version", false],
  ["--wizard", false],
  ["--log-level", true],
  ["--completions", true]
]

/** The options of a usage, each with whether it takes a value. */
const optionsOf = (usage: Usage.Usage, into: Map<string, boolean>): Map<string, boolean> => {
  switch (usage._tag) {
    case "Named":
      for (const name of usage.names)
        if (name.startsWith("-")) into.set(name, Option.isSome(usage.acceptedValues))
      return into
    case "Optional":
    case "Repeated":
      return optionsOf(usage.usage, into)
    case "Concat":
    case "Alternation":
      return optionsOf(usage.right, optionsOf(usage.left, into))
    default:
      return into
  }
}

export interface UnknownOption {
  /** The word as given, e.g. `--permisson`. */
  readonly word: string
  /** The command's option it is likely a slip of, if one is within two edits. */
  readonly nearest: string | undefined
  /**
   * Set when `word` is a known option that takes a value and the word after it is
   * another option (`--range --since 1h`): the parser took that option for the value.
   */
  readonly followedBy?: string
}

/**
 * The first word of `args` that reads as an option its command does not take, or an
 * option whose value is missing because another option comes next.
 */
export const unknownOption = (
  commands: ReadonlyArray<AnyCommand>,
  args: ReadonlyArray<string>
): UnknownOption | undefined => {
  const top = commands.find((c) => HashSet.has(Command.getNames(c), args[0] ?? ""))
  if (top === undefined) return undefined
  const sub = HashMap.get(Command.getSubcommands(top), args[1] ?? "")
  const usage = Option.match(sub, {
    onNone: () => Command.getUsage(top),
    onSome: (descriptor) => Descriptor.getUsage(descriptor)
  })
  const known = optionsOf(usage, new Map(BUILT_IN))
  for (let i = Option.isSome(sub) ? 2 : 1; i < args.length; i++) {
    const word = args[i]!
    if (word === "--") return undefined
    if (!OPTION_WORD.test(word)) continue
    const name = word.split("=")[0]!
    const takesValue = known.get(name)
    if (takesValue === undefined) {
      const suggestion = nearest(
        name,
        [...known.keys()].filter((option) => option.startsWith("--"))
      )
      return { word: name, nearest: suggestion }
    }
    if (takesValue && !word.includes("=")) {
      const next = args[i + 1]
      // A value may start with one dash (`--earliest -24h`), not with two.
      if (next !== undefined && next.startsWith("--") && OPTION_WORD.test(next))
        return { word: name, nearest: undefined, followedBy: next.split("=")[0]! }
      i++
    }
  }
  return undefined
}
