import { describe, expect, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { framedMsgPack } from "../../src/provisioner/FramedMsgPack.js"

// The engine channel's messages as they cross the socket: cut wherever the reads fall.
const messages = [
  { _tag: "Request", id: "1", tag: "Query", payload: { sql: "SELECT 1" } },
  { _tag: "Chunk", requestId: "1", values: [{ bytes: new Uint8Array(3_000_000).fill(7) }] },
  { _tag: "Exit", requestId: "1", exit: { _tag: "Success", value: null } },
  { _tag: "Ack", requestId: "1" }
]

/** A message with each byte array as its digest: megabytes compare in a hash. */
const digest = (value: unknown): unknown =>
  value instanceof Uint8Array
    ? `bytes ${createHash("sha256").update(value).digest("hex")}`
    : Array.isArray(value)
      ? value.map(digest)
      : typeof value === "object" && value !== null
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digest(v)]))
        : value
const expected = messages.map(digest)

/** `bytes` cut at the given offsets. */
const cut = (bytes: Uint8Array, at: ReadonlyArray<number>) =>
  [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length))

const wire = () => {
  const sender = framedMsgPack.unsafeMake()
  return Buffer.concat(messages.map((message) => sender.encode(message) as Uint8Array))
}

describe("FramedMsgPack", () => {
  it("decodes messages whole from one read", () => {
    expect(framedMsgPack.unsafeMake().decode(wire()).map(digest)).toEqual(expected)
  })

  it("decodes each message once all of it has arrived, however the reads cut it", () => {
    const bytes = wire()
    // Inside a length header (2), inside the large message, right at a message's end,
    // then 64 kB reads, as a Unix socket delivers them.
    const firstEnd = (framedMsgPack.unsafeMake().encode(messages[0]) as Uint8Array).length
    const offsets = [2, firstEnd, firstEnd + 10]
    for (let at = firstEnd + 65_536; at < bytes.length; at += 65_536) offsets.push(at)
    const receiver = framedMsgPack.unsafeMake()
    const arrivals = cut(bytes, offsets).map((read) => receiver.decode(read))
    expect(arrivals.flat().map(digest)).toEqual(expected)
    // Nothing before its last byte: the first message appears with the read that ends it.
    expect(arrivals[0]).toEqual([])
    expect(arrivals[1]).toEqual([messages[0]])
  })

  it("decodes byte by byte", () => {
    const small = messages.filter((message) => message._tag !== "Chunk")
    const sender = framedMsgPack.unsafeMake()
    const bytes = Buffer.concat(small.map((message) => sender.encode(message) as Uint8Array))
    const receiver = framedMsgPack.unsafeMake()
    const decoded = Array.from(bytes, (_, i) => receiver.decode(bytes.subarray(i, i + 1))).flat()
    expect(decoded).toEqual(small)
  })
})
