/**
 * The record splitter on its own: whatever the network chunking, every chunk it emits
 * is a valid body of whole records, in order, none lost; errors name line and offset.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Chunk } from "../../src/ingest/RecordSplitter.js"
import { RecordSplitter, SplitError } from "../../src/ingest/RecordSplitter.js"

const tricky = Array.from({ length: 200 }, (_, i) => ({
  i,
  text: `q"uote \\ back\\\\slash {brace} [bracket] ,comma ${"\\".repeat(i % 4)}`,
  nested: { list: [i, { deep: "}" }], empty: {} }
}))

/** Feeds `body` in pieces of 1–`max` bytes (deterministic) and collects the chunks. */
const split = (body: string, lines: boolean, chunkBytes: number, max: number) => {
  const bytes = new TextEncoder().encode(body)
  const splitter = new RecordSplitter(chunkBytes, lines)
  const chunks: Array<Chunk> = []
  let step = 1
  for (let offset = 0; offset < bytes.length; offset += step, step = (step % max) + 1) {
    chunks.push(...splitter.push(bytes.subarray(offset, offset + step)))
  }
  chunks.push(...splitter.end())
  return { chunks, total: splitter.totalRecords }
}

const text = (chunk: Chunk) => Buffer.concat(chunk.parts.map((p) => Buffer.from(p))).toString()

describe("RecordSplitter", () => {
  for (const max of [1, 3, 64, 100_000]) {
    it(`an array cut into pieces of up to ${max} bytes yields every record in order`, () => {
      const { chunks, total } = split(JSON.stringify(tricky), false, 300, max)
      expect(total).toBe(tricky.length)
      expect(chunks.length).toBeGreaterThan(5)
      const records = chunks.flatMap((c) => JSON.parse(text(c)) as Array<unknown>)
      expect(records).toEqual(tricky)
      expect(chunks.map((c) => c.records).reduce((a, b) => a + b)).toBe(tricky.length)
    })

    it(`NDJSON cut into pieces of up to ${max} bytes yields every record in order`, () => {
      const body = tricky.map((r) => JSON.stringify(r)).join("\n") + "\n"
      const { chunks } = split(body, true, 300, max)
      const records = chunks.flatMap((c) =>
        text(c)
          .split("\n")
          .filter((l) => l.trim().length > 0)
          .map((l) => JSON.parse(l) as unknown)
      )
      expect(records).toEqual(tricky)
      expect(chunks[1]?.lines[0]).toBe((chunks[0]?.records ?? 0) + 1)
    })
  }

  it("reports structural errors with line and offset", () => {
    const failure = (body: string, lines = false) => {
      try {
        split(body, lines, 1000, 5)
      } catch (error) {
        if (error instanceof SplitError) return error.message
      }
      throw new Error(`no error for ${body}`)
    }
    expect(failure('[{"a":1},\n 2]')).toBe("Record 1 is not a JSON object (line 2, byte offset 11)")
    expect(failure('{"a": [1}')).toMatch(/^Unexpected '}' \(line 1, byte offset 8\)/)
    expect(failure('[{"a":1}] x')).toMatch(/after the closing \]/)
    expect(failure('{"a":"open')).toMatch(/Unterminated string/)
    expect(failure('{"a":1}\n{"a":\n', true)).toBe(
      "Record 1 is not closed with } before the body ends (it starts at line 2, byte offset 8)"
    )
    expect(failure('[{"a":1},\n  {"b": {"c": 2}\n\n')).toBe(
      "Record 1 is not closed with } before the body ends (it starts at line 2, byte offset 12)"
    )
    expect(failure('[{"a":1},\n  {"b": 2}\n')).toBe(
      "The array is not closed with ] (line 3, byte offset 21)"
    )
    expect(failure("[]")).toMatch(/no records/)
    expect(failure("  ")).toMatch(/empty/)
    expect(failure('[{"a":1}]', true)).toMatch(/Record 0 is not a JSON object/)
  })
})
