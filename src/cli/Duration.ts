/** Durations as people type them on a command line: `90s`, `15m`, `1h`, `7d`, or seconds. */
import { Effect } from "effect"
import { badUsage } from "./CliError.js"

const UNITS: Readonly<Record<string, number>> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 }

export const seconds = (flag: string, text: string) => {
  const match = /^(\d+(?:\.\d+)?)([smhdw]?)$/.exec(text.trim())
  const value = match === null ? NaN : Number(match[1]) * UNITS[match[2] === "" ? "s" : match[2]!]!
  return Number.isFinite(value) && value > 0
    ? Effect.succeed(value)
    : Effect.fail(
        badUsage(
          `--${flag} ${JSON.stringify(text)} is not a duration.`,
          "Examples: 30s, 15m, 1h, 7d."
        )
      )
}
