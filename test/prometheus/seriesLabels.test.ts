/**
 * Label sets as remote write and OTLP metrics make them: a label named `__proto__` (a
 * valid Prometheus label name) is kept like any other, so its series keeps its identity.
 */
import { describe, expect, it } from "@effect/vitest"
import { attributeLabels } from "../../src/prometheus/otlp/OtlpLabels.js"
import { labelName } from "../../src/prometheus/otlp/PrometheusNames.js"
import { seriesId, validLabels } from "../../src/prometheus/SeriesLabels.js"

const labelsOf = (pairs: ReadonlyArray<readonly [string, string]>) => {
  const checked = validLabels(pairs.map(([name, value]) => ({ name, value })))
  if ("problem" in checked) throw new Error(checked.problem)
  return checked.labels
}

describe("label sets", () => {
  it("a remote-write label named __proto__ is kept and names another series", () => {
    const withIt = labelsOf([
      ["__name__", "up"],
      ["__proto__", "x"]
    ])
    const without = labelsOf([["__name__", "up"]])
    expect(Object.keys(withIt)).toEqual(["__name__", "__proto__"])
    expect(withIt["__proto__"]).toBe("x")
    expect(JSON.stringify(withIt)).toBe('{"__name__":"up","__proto__":"x"}')
    expect(seriesId(withIt)).not.toBe(seriesId(without))
  })

  it("a repeated __proto__ label is refused as any repeated name", () => {
    const checked = validLabels([
      { name: "__name__", value: "up" },
      { name: "__proto__", value: "x" },
      { name: "__proto__", value: "y" }
    ])
    expect(checked).toEqual({ problem: "duplicate label name '__proto__'" })
  })

  it("an OTLP attribute named __proto__ becomes a label", () => {
    const labels = attributeLabels([
      { key: "__proto__", value: { value: { case: "stringValue", value: "x" } } }
    ])
    expect(Object.keys(labels)).toEqual([labelName("__proto__")])
    expect(labels[labelName("__proto__")]).toBe("x")
  })
})
