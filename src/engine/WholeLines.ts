/**
 * A server's response arrives in pieces cut wherever the socket's reads end; chDB's
 * pieces are whole blocks of rows. The query path counts a result's bytes piece by piece
 * and, past the limit, ends the stream with the error as a line of its own: for formats
 * of one row per line, pieces cut at a line's end keep every line before that a row.
 */
export async function* wholeLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let held: Buffer | undefined
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    const joined = held === undefined ? bytes : Buffer.concat([held, bytes])
    const end = joined.lastIndexOf(0x0a) + 1
    if (end > 0) yield joined.subarray(0, end)
    held = end === joined.length ? undefined : joined.subarray(end)
  }
  if (held !== undefined) yield held
}
