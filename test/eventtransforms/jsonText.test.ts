/**
 * The JSON slicer the transforms use to keep records' exact text: element and member
 * texts are found past strings holding brackets, quotes and escapes.
 */
import { describe, expect, it } from "@effect/vitest"
import {
  arrayElements,
  memberText,
  oneLine,
  withMembers
} from "../../src/eventtransforms/JsonText.js"

const tricky = [
  { s: 'a "quoted" ] } [ { string', n: 12345678901234567890 },
  { s: "back\\slash\\", nested: [[1, { x: "]" }], {}] },
  {}
]

describe("JsonText", () => {
  it("slices each element of an array, exactly as written", () => {
    const text = JSON.stringify(tricky, null, 2)
    const parts = arrayElements(text, 0)
    expect(parts.map((p) => JSON.parse(p) as unknown)).toEqual(tricky)
    const raw = '[ {"big": 123456789012345678901} , {"a":[1,2]}]'
    expect(arrayElements(raw, 0)).toEqual(['{"big": 123456789012345678901}', '{"a":[1,2]}'])
    expect(arrayElements("[ ]", 0)).toEqual([])
  })

  it("finds a member's text past keys and values that look like it", () => {
    const text = '{"x":"\\"Records\\": [1]","Records\\u0041":0, "Records" : [ {"a":1} ] }'
    expect(memberText(text, 0, "Records")).toBe('[ {"a":1} ]')
    expect(memberText(text, 0, "RecordsA")).toBe("0")
    expect(memberText(text, 0, "missing")).toBeUndefined()
  })

  it("puts valid JSON on one line and adds members the row does not have", () => {
    expect(oneLine('{\n  "a": "x\\ny",\r\n  "b": 1\n}\n')).toBe('{   "a": "x\\ny",   "b": 1 }')
    const row = '{"a":1}'
    expect(
      withMembers(row, (n) => n === "a", [
        ["a", "no"],
        ["b", "yes"]
      ])
    ).toBe('{"a":1,"b":"yes"}')
    expect(withMembers("{}", () => false, [["b", "yes"]])).toBe('{"b":"yes"}')
    expect(withMembers("{ }", () => false, [])).toBe("{ }")
  })
})
