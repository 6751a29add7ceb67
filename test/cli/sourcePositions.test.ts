/** The server's positions in a batch, said of the file the batch came from. */
import { describe, expect, it } from "@effect/vitest"
import { Readable } from "node:stream"
import { batchesOf, sourcePositions } from "../../src/cli/InsertSource.js"

const batches = async (text: string, batchBytes: number) => {
  const all = []
  for await (const batch of batchesOf(Readable.from([Buffer.from(text)]), batchBytes))
    all.push(batch)
  return all
}

describe("sourcePositions", () => {
  it("maps records and lines of a later batch to the file, blank lines counted", async () => {
    const text = '{"a":1}\n\n{"a":2}\n{"a":3}\n\n\n{"a":4}\n{"a":5}'
    const [first, second] = await batches(text, 16)
    expect([first!.lines, second!.lines]).toEqual([
      [1, 3],
      [4, 7]
    ])
    expect(second!.recordsBefore).toBe(2)
    expect(sourcePositions("Malformed JSON in record 1 (line 2): bad", second!)).toBe(
      "Malformed JSON in record 3 (line 7): bad"
    )
    expect(
      sourcePositions(
        "Malformed body: Record 1 is not a JSON object (line 2, byte offset 9).",
        second!
      )
    ).toBe("Malformed body: Record 3 is not a JSON object (line 7).")
    expect(
      sourcePositions("Record 0 is not closed with } (it starts at line 1, byte offset 0)", second!)
    ).toBe("Record 2 is not closed with } (it starts at line 4)")
  })

  it("leaves a JSON array's batches as the server said", async () => {
    const [batch] = await batches('[{"a":1},\n{"a":2}]', 1024)
    expect(batch!.lines).toEqual([])
    expect(sourcePositions("Record 1 (line 2) holds the field 'a' twice", batch!)).toBe(
      "Record 1 (line 2) holds the field 'a' twice"
    )
  })
})
