/**
 * A server's exception block at the end of a streamed result (as ClickHouse 26.7 writes
 * it, captured from the test server): the rows before it pass, the block does not, and
 * the stream fails with the server's error, wherever the chunks split the block.
 */
import { describe, expect, it } from "@effect/vitest"
import { ClickHouseError } from "@clickhouse/client"
import { withoutExceptionBlock } from "../../src/engine/StreamedException.js"

const tag = "foaoetxxhwwhiuwz"
const rows = '{"number":0}\n{"number":15}\n'
const message =
  "Code: 396. DB::Exception: Limit for result exceeded, max bytes: 976.56 KiB, " +
  "current bytes: 987.95 KiB. (TOO_MANY_ROWS_OR_BYTES) (version 26.7.2.1)\n"
const block = `\r\n__exception__\r\n${tag}\r\n${message}${message.length} ${tag}\r\n__exception__\r\n`

const split = (text: string, size: number) => {
  const bytes = Buffer.from(text)
  const pieces: Array<Uint8Array> = []
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size))
  return pieces
}

async function* from(pieces: ReadonlyArray<Uint8Array>) {
  yield* pieces
}

const read = async (pieces: ReadonlyArray<Uint8Array>, withTag: string | undefined) => {
  let passed = ""
  try {
    for await (const piece of withoutExceptionBlock(from(pieces), withTag)) {
      passed += Buffer.from(piece).toString()
    }
    return { passed, error: undefined }
  } catch (error) {
    return { passed, error }
  }
}

describe("an exception block ending a streamed result", () => {
  for (const size of [1, 7, 16, 64, 10_000]) {
    it(`fails with the server's error, the rows passed, in chunks of ${size} bytes`, async () => {
      const { passed, error } = await read(split(rows + block, size), tag)
      expect(passed).toBe(rows)
      expect(error).toBeInstanceOf(ClickHouseError)
      expect((error as ClickHouseError).code).toBe("396")
      expect((error as ClickHouseError).message).toContain("Limit for result exceeded")
    })
  }

  it("a result without one passes whole, also when it ends like the opening", async () => {
    const text = rows + "\r\n__exception__\r\nfoao"
    expect(await read(split(text, 5), tag)).toEqual({ passed: text, error: undefined })
  })

  it("passes the chunks on as they came, so a result of one chunk is one piece", async () => {
    // Ten rows, as the server sends a small result: longer than the opening it looks for.
    const result = Array.from({ length: 10 }, (_, n) => `{"number":${n},"s":"${n}"}\n`).join("")
    const piecesOf = async (chunks: ReadonlyArray<Uint8Array>) => {
      const pieces: Array<string> = []
      for await (const piece of withoutExceptionBlock(from(chunks), tag)) {
        pieces.push(Buffer.from(piece).toString())
      }
      return pieces
    }
    expect(await piecesOf([Buffer.from(result)])).toEqual([result])
    const chunks = split(result.repeat(3), result.length)
    const pieces = await piecesOf(chunks)
    expect(pieces.join("")).toBe(result.repeat(3))
    expect(pieces.length).toBeLessThanOrEqual(chunks.length + 1)
  })

  it("without a tag (chDB, an older server) nothing is looked for", async () => {
    const text = rows + block
    expect(await read(split(text, 9), undefined)).toEqual({ passed: text, error: undefined })
  })
})
