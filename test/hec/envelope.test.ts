/**
 * The envelope rules of the collector on their own (no server): time reading, metadata
 * defaults, the fields an event is queryable by, and the code and event number of each
 * refusal. Expected values are worked out from the spec by hand.
 */
import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { eventsOf } from "../../src/hec/EnvelopeBatch.js"
import { rawEventsOf } from "../../src/hec/RawLines.js"

const defaults = { host: "10.0.0.9", source: "http:ci", receivedAt: 1767225600000 }
const bytes = (text: string) => new TextEncoder().encode(text)
const parse = (text: string) => eventsOf(bytes(text), defaults)

const refusal = (text: string) =>
  Either.match(parse(text), {
    onLeft: (e) => ({ code: e.code, eventNumber: e.eventNumber }),
    onRight: () => "accepted"
  })

const times = (text: string) => Either.getOrThrow(parse(text)).map((e) => e.time)

describe("envelopes", () => {
  it("time: seconds with a fraction, numeric strings, milliseconds past the year 2400", () => {
    expect(
      times(
        '{"event":"a","time":1767225600.5}{"event":"b","time":"1767225600.123"}' +
          '{"event":"c","time":1767225600250}{"event":"d"}{"event":"e","time":13569465601}'
      )
    ).toEqual([1767225600500, 1767225600123, 1767225600250, 1767225600000, 13569465601])
  })

  it("metadata defaults: the client's host, http:<key name>, httpevent, main", () => {
    const [event] = Either.getOrThrow(parse('{"event":"plain text"}'))
    expect(event).toEqual({
      time: 1767225600000,
      raw: "plain text",
      host: "10.0.0.9",
      source: "http:ci",
      sourcetype: "httpevent",
      index: "main",
      fields: {}
    })
  })

  it("an object event's fields and the indexed fields, which win; metadata keys stay in _raw", () => {
    const [event] = Either.getOrThrow(
      parse('{"event":{"a":1,"host":"inner","n":{"m":2}},"fields":{"a":"f","b":[1,2]},"host":"h"}')
    )
    expect(event?.raw).toBe('{"a":1,"host":"inner","n":{"m":2}}')
    expect(event?.host).toBe("h")
    expect(event?.fields).toEqual({ a: "f", n: { m: 2 }, b: [1, 2] })
  })

  it("a key named __proto__ is a field like any other, in the event and in fields", () => {
    const fieldsText = (text: string) => JSON.stringify(Either.getOrThrow(parse(text))[0]?.fields)
    expect(fieldsText('{"event":{"__proto__":{"x":1},"a":1}}')).toBe('{"__proto__":{"x":1},"a":1}')
    expect(fieldsText('{"event":{"__proto__":{"x":1}},"fields":{"b":2}}')).toBe(
      '{"__proto__":{"x":1},"b":2}'
    )
    expect(fieldsText('{"event":"text","fields":{"__proto__":"p"}}')).toBe('{"__proto__":"p"}')
  })

  it("separators: nothing, spaces, newlines, or one array", () => {
    const raws = (text: string) => Either.getOrThrow(parse(text)).map((e) => e.raw)
    expect(raws('{"event":"1"}{"event":"2"} {"event":"3"}\r\n{"event":4}')).toEqual([
      "1",
      "2",
      "3",
      "4"
    ])
    expect(raws(' [ {"event":"1"} , {"event":true} ] ')).toEqual(["1", "true"])
  })

  it("each refusal's code and 0-based event number", () => {
    expect(refusal("")).toEqual({ code: 5, eventNumber: undefined })
    expect(refusal(" \n ")).toEqual({ code: 5, eventNumber: undefined })
    expect(refusal("[]")).toEqual({ code: 6, eventNumber: 0 })
    expect(refusal("hello")).toEqual({ code: 6, eventNumber: 0 })
    expect(refusal('{"event":"a"}{"event":')).toEqual({ code: 6, eventNumber: 1 })
    expect(refusal('[{"event":"a"}, 3]')).toEqual({ code: 6, eventNumber: 1 })
    expect(refusal('{"event":"a"}{"event":"b",}')).toEqual({ code: 6, eventNumber: 1 })
    expect(refusal('{"event":"a"}{"time":1}')).toEqual({ code: 12, eventNumber: 1 })
    expect(refusal('{"event":null}')).toEqual({ code: 12, eventNumber: 0 })
    expect(refusal('{"event":"a"}{"event":"b"}{"event":"  "}')).toEqual({
      code: 13,
      eventNumber: 2
    })
    expect(refusal('{"event":{}}')).toEqual({ code: 13, eventNumber: 0 })
    expect(refusal('{"event":"a","fields":{"a":{"b":1}}}')).toEqual({ code: 15, eventNumber: 0 })
    expect(refusal('{"event":"a","fields":{"a":[{"b":1}]}}')).toEqual({ code: 15, eventNumber: 0 })
    expect(refusal('{"event":"a","fields":"x"}')).toEqual({ code: 15, eventNumber: 0 })
    expect(refusal('{"event":"a"} {"event":"b","time":"yesterday"}')).toEqual({
      code: 15,
      eventNumber: 1
    })
    expect(refusal('{"event":"a","host":7}')).toEqual({ code: 6, eventNumber: 0 })
    expect(refusal('{"event":"a","index":"Main!"}')).toEqual({ code: 7, eventNumber: 0 })
  })

  it("bodies with text beyond ASCII read the same, and their faults name the same event", () => {
    const raws = (text: string) => Either.getOrThrow(parse(text)).map((e) => e.raw)
    expect(raws('{"event":"caf\u00e9"}{"event":"café ☕"}\n{"event":{"k":"ü"}}')).toEqual([
      "café",
      "café ☕",
      '{"k":"ü"}'
    ])
    expect(raws('[{"event":"ü"},{"event":"b"}]')).toEqual(["ü", "b"])
    expect(refusal('{"event":"ü"}{"event":"b",}')).toEqual({ code: 6, eventNumber: 1 })
    expect(refusal('[{"event":"ü"}, {"event":"  "}]')).toEqual({ code: 13, eventNumber: 1 })
    expect(refusal('{"event":"a"}{"event":"b",}')).toEqual({ code: 6, eventNumber: 1 })
    // A byte that is not UTF-8 is a fault of the event that holds it.
    const invalid = new Uint8Array([...bytes('{"event":"a"}{"event":"'), 0xff, ...bytes('"}')])
    const answer = eventsOf(invalid, defaults)
    expect(Either.isLeft(answer) && [answer.left.code, answer.left.eventNumber]).toEqual([6, 1])
  })
})

describe("raw bodies", () => {
  it("one event per non-blank line, metadata and time from the query", () => {
    const lines = rawEventsOf(
      bytes("first\r\nsecond\n\n   \nthird"),
      { host: "r1", sourcetype: "syslog", time: "1767225900" },
      defaults
    )
    expect(Either.getOrThrow(lines)).toEqual(
      ["first", "second", "third"].map((raw) => ({
        time: 1767225900000,
        raw,
        host: "r1",
        source: "http:ci",
        sourcetype: "syslog",
        index: "main",
        fields: {}
      }))
    )
  })

  it("refusals: no lines (5), a time that is not a number (15)", () => {
    const code = (body: string, time?: string) =>
      Either.match(rawEventsOf(bytes(body), { time }, defaults), {
        onLeft: (e) => e.code,
        onRight: () => 0
      })
    expect(code("\n \n")).toBe(5)
    expect(code("x", "noon")).toBe(15)
  })
})
