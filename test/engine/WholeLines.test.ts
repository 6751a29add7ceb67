/** Pieces of a line-per-row result cut at line ends, whatever the socket's reads were. */
import { describe, expect, it } from "@effect/vitest"
import { wholeLines } from "../../src/engine/WholeLines.js"

async function* from(pieces: ReadonlyArray<string>) {
  for (const piece of pieces) yield Buffer.from(piece)
}

const piecesOf = async (pieces: ReadonlyArray<string>) => {
  const out: Array<string> = []
  for await (const piece of wholeLines(from(pieces))) out.push(Buffer.from(piece).toString())
  return out
}

describe("wholeLines", () => {
  it("ends every piece at a line's end; a piece with none waits for the next", async () => {
    expect(await piecesOf(['{"n":1}\n{"n', '":2}\n{"n":3', "}\n", '{"n":4}\n'])).toEqual([
      '{"n":1}\n',
      '{"n":2}\n',
      '{"n":3}\n',
      '{"n":4}\n'
    ])
    expect(await piecesOf(["a", "b", "c\nd"])).toEqual(["abc\n", "d"])
  })
})
