/**
 * A `WriteRequest`'s samples read off its bytes: as every sender lays them out (value,
 * then timestamp) and any other way protobuf allows (fields swapped, repeated, unknown
 * ones, zero fields left out, long and negative timestamps), each sample gives the same
 * time and value bits. The bytes are written here by hand, the expected values come from
 * BigInt, not from the reader.
 */
import { describe, expect, it } from "@effect/vitest"
import type { SampleSink } from "../../src/prometheus/WriteRequestReader.js"
import {
  Malformed,
  readSamples,
  readWriteRequest
} from "../../src/prometheus/WriteRequestReader.js"

const varint = (value: bigint): Array<number> => {
  let rest = BigInt.asUintN(64, value)
  const bytes: Array<number> = []
  do {
    const low = Number(rest & 0x7fn)
    rest >>= 7n
    bytes.push(rest > 0n ? low | 0x80 : low)
  } while (rest > 0n)
  return bytes
}
const fixed64 = (bits: bigint) =>
  Array.from({ length: 8 }, (_, i) => Number((bits >> BigInt(8 * i)) & 0xffn))
const delimited = (key: number, content: ReadonlyArray<number>) => [
  key,
  ...varint(BigInt(content.length)),
  ...content
]
const value = (bits: bigint) => [0x09, ...fixed64(bits)]
const time = (ms: bigint) => [0x10, ...varint(ms)]

/** One series (label `__name__="x"`) holding `samples`, each the given Sample message bytes. */
const request = (samples: ReadonlyArray<ReadonlyArray<number>>) =>
  Uint8Array.from(
    delimited(0x0a, [
      ...delimited(0x0a, [
        ...delimited(0x0a, [...Buffer.from("__name__")]),
        ...delimited(0x12, [0x78])
      ]),
      ...samples.flatMap((sample) => delimited(0x12, sample))
    ])
  )

const read = (bytes: Uint8Array) => {
  const got: Array<string> = []
  const sink: SampleSink = {
    sample: (ms, low, high) =>
      got.push(`${ms} ${((BigInt(high) << 32n) | BigInt(low)).toString(16)}`)
  }
  const parsed = readWriteRequest(bytes)
  for (const series of parsed.series) readSamples(parsed, series, sink)
  return got
}
const row = (ms: bigint, bits: bigint) => `${BigInt.asIntN(64, ms)} ${bits.toString(16)}`

const ONE = 0x3ff0000000000000n
const STALE = 0x7ff0000000000002n

describe("WriteRequestReader samples", () => {
  it("reads usual and unusual layouts of a sample alike", () => {
    const cases: ReadonlyArray<readonly [ReadonlyArray<number>, bigint, bigint]> = [
      [[...value(ONE), ...time(1_767_225_600_123n)], 1_767_225_600_123n, ONE],
      [[...value(0x4059000000000000n), ...time(127n)], 127n, 0x4059000000000000n],
      [[...value(ONE), ...time(128n)], 128n, ONE],
      [[...value(ONE), ...time(2n ** 49n - 1n)], 2n ** 49n - 1n, ONE],
      [[...value(ONE), ...time(2n ** 49n)], 2n ** 49n, ONE], // an 8-byte varint
      [[...value(ONE), ...time(-1n)], -1n, ONE], // 10 bytes
      [[...value(ONE), ...time(-1_767_225_600_123n)], -1_767_225_600_123n, ONE],
      [[...time(42n), ...value(ONE)], 42n, ONE], // swapped
      [[...value(ONE)], 0n, ONE], // a zero timestamp left out
      [[...time(5n)], 5n, 0n], // a zero value left out
      [[...value(0n), ...time(9n), ...value(ONE)], 9n, ONE], // the last value counts
      [[...value(ONE), ...time(7n), 0x18, 0x01], 7n, ONE], // an unknown field after
      [[...value(ONE), ...time(7n), ...time(8n)], 8n, ONE], // the last time counts
      [[...value(STALE), ...time(1_000n)], 1_000n, STALE],
      [[...value(0x7ff8000000000002n), ...time(1_000n)], 1_000n, STALE], // quieted marker
      [[...value(0xfff8000000000001n), ...time(3n)], 3n, 0xfff8000000000001n]
    ]
    expect(read(request(cases.map(([sample]) => sample)))).toEqual(
      cases.map(([, ms, bits]) => row(ms, bits))
    )
  })

  it("refuses a sample whose timestamp runs past its end", () => {
    // Length 11: the value, the timestamp's key and one varint byte that says more follow.
    const cut = [...value(ONE), 0x10, 0x80]
    expect(() => read(request([cut]))).toThrow(Malformed)
  })
})
