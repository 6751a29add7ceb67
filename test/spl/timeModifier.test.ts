/**
 * Time modifiers for a search started on Tuesday
 * 2026-03-31T15:45:30.250Z; every expected instant is worked out on a calendar.
 */
import { describe, expect, it } from "@effect/vitest"
import { Refusal } from "../../src/spl/compiler/Refusal.js"
import { resolveTime } from "../../src/spl/compiler/TimeModifier.js"

const now = Date.UTC(2026, 2, 31, 15, 45, 30, 250)

const cases: ReadonlyArray<readonly [text: string, expected: number]> = [
  ["now", now],
  ["1767225600", Date.UTC(2026, 0, 1)],
  ["1767225600.5", Date.UTC(2026, 0, 1) + 500],
  ["-24h", Date.UTC(2026, 2, 30, 15, 45, 30, 250)],
  ["-30m", Date.UTC(2026, 2, 31, 15, 15, 30, 250)],
  ["-15minutes", Date.UTC(2026, 2, 31, 15, 30, 30, 250)],
  ["-h", Date.UTC(2026, 2, 31, 14, 45, 30, 250)],
  ["+2d", Date.UTC(2026, 3, 2, 15, 45, 30, 250)],
  ["-7d@d", Date.UTC(2026, 2, 24)],
  ["@d", Date.UTC(2026, 2, 31)],
  ["-1h@h", Date.UTC(2026, 2, 31, 14)],
  ["@m", Date.UTC(2026, 2, 31, 15, 45)],
  ["@w0", Date.UTC(2026, 2, 29)],
  ["@w", Date.UTC(2026, 2, 29)],
  ["@w1", Date.UTC(2026, 2, 30)],
  ["@w2", Date.UTC(2026, 2, 31)],
  ["@w3", Date.UTC(2026, 2, 25)],
  ["-1w@w1", Date.UTC(2026, 2, 23)],
  ["-1mon", Date.UTC(2026, 1, 28, 15, 45, 30, 250)],
  ["@mon", Date.UTC(2026, 2, 1)],
  ["@q", Date.UTC(2026, 0, 1)],
  ["-1q@q", Date.UTC(2025, 9, 1)],
  ["@y", Date.UTC(2026, 0, 1)],
  ["-1y@y", Date.UTC(2025, 0, 1)]
]

describe("SPL time modifiers", () => {
  for (const [text, expected] of cases)
    it(`${text} → ${new Date(expected).toISOString()}`, () =>
      expect(new Date(resolveTime("earliest", text, now)).toISOString()).toBe(
        new Date(expected).toISOString()
      ))

  for (const text of ["yesterday", "-3x", "5h", "@w9", "-1h@d3", "-99999999999999999999y", "@"])
    it(`${text} is refused naming the parameter`, () => {
      const thrown = (() => {
        try {
          resolveTime("latest", text, now)
        } catch (error) {
          return error
        }
      })()
      expect(thrown).toBeInstanceOf(Refusal)
      expect((thrown as Refusal).command).toBe("latest")
    })
})
