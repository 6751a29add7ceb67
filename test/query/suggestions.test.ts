/** The name a refusal offers for a mistyped one. */
import { describe, expect, it } from "@effect/vitest"
import { editDistance, nearest } from "../../domain/Suggestions.js"

describe("nearest", () => {
  it("offers the candidate fewest edits away, within two, case ignored", () => {
    expect(editDistance("selec", "select")).toBe(1)
    expect(editDistance("kitten", "sitting")).toBe(3)
    expect(nearest("SELEC", ["with", "select", "show"])).toBe("select")
    expect(nearest("--permisson", ["--profile", "--permission", "--json"])).toBe("--permission")
    // Two edits is the reach: three is another word.
    expect(nearest("--prfl", ["--profile"])).toBeUndefined()
    expect(nearest("countif", ["countIf", "count"])).toBe("countIf")
    // Equally near: the first.
    expect(nearest("cat", ["bat", "hat"])).toBe("bat")
  })
})
