/** The stage funnel's shares: only between consecutive exact counts, previous > 0, current ≤ previous. */
import { describe, expect, it } from "@effect/vitest"
import { rowsOf, shareOf } from "../../src/cli/Funnel.js"

const stage = (output_rows: number | null, truncated = false) => ({
  command: "where",
  expression: "x",
  output_rows,
  truncated
})

describe("CLI stage funnel", () => {
  it("kept and affected shares between exact consecutive counts", () => {
    expect(shareOf(stage(200), stage(50))).toEqual({
      keptPercent: 25,
      affectedRows: 150,
      affectedPercent: 75
    })
    expect(shareOf(stage(7), stage(7))).toEqual({
      keptPercent: 100,
      affectedRows: 0,
      affectedPercent: 0
    })
  })

  it("no share after a truncated, unmeasured or zero count, nor when the count grew", () => {
    expect(shareOf(stage(10_000, true), stage(5))).toBeUndefined()
    expect(shareOf(stage(100), stage(10_000, true))).toBeUndefined()
    expect(shareOf(stage(null), stage(5))).toBeUndefined()
    expect(shareOf(stage(100), stage(null))).toBeUndefined()
    expect(shareOf(stage(0), stage(0))).toBeUndefined()
    expect(shareOf(stage(3), stage(4))).toBeUndefined()
  })

  it("truncated counts read ≥ 10,000 and unmeasured ones a dash", () => {
    expect(rowsOf([stage(10_000, true), stage(null), stage(3)])).toEqual([
      ["where x", "≥ 10,000", "", ""],
      ["where x", "—", "", ""],
      ["where x", "3", "", ""]
    ])
  })
})
