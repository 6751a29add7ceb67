/**
 * `limit_ratio` samples series by Prometheus's label hash, xxHash64: checked against the
 * algorithm's published test vectors (empty input, a short input, one past 32 bytes).
 */
import { describe, expect, it } from "@effect/vitest"
import { labelsHash, xxhash64 } from "../../src/prometheus/promql/evaluator/LabelsHash.js"

const bytes = (text: string) => new TextEncoder().encode(text)

describe("xxHash64", () => {
  it("matches the reference implementation's vectors", () => {
    expect(xxhash64(bytes(""))).toBe(0xef46db3751d8e999n)
    expect(xxhash64(bytes("abc"))).toBe(0x44bc2cf5ad770999n)
    expect(xxhash64(bytes("Nobody inspects the spammish repetition"))).toBe(0xfbcea83c8a378bf1n)
  })

  it("hashes a label set as sorted name 0xff value 0xff", () => {
    const joined = new Uint8Array([
      ...bytes("a"),
      0xff,
      ...bytes("1"),
      0xff,
      ...bytes("b"),
      0xff,
      ...bytes("2"),
      0xff
    ])
    expect(labelsHash({ b: "2", a: "1" })).toBe(xxhash64(joined))
  })
})
