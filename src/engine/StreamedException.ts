/**
 * A ClickHouse server that fails a query after its first bytes went out (a result over
 * `max_result_bytes`, a timeout) cannot change the status: it ends the body with the
 * error between markers carrying the response's `X-ClickHouse-Exception-Tag`. A raw
 * result stream (`exec`) would pass that block on as data; here it becomes the error the
 * stream fails with, and none of its bytes are passed on.
 */
import { EXCEPTION_TAG_HEADER_NAME, extractErrorAtTheEndOfChunk } from "@clickhouse/client"
import type { ResponseHeaders } from "@clickhouse/client"

const opening = (tag: string) => Buffer.from(`\r\n__exception__\r\n${tag}`)

/** The server's exception tag for this response, if it may end with an exception block. */
export const exceptionTagOf = (headers: ResponseHeaders): string | undefined => {
  const tag = headers[EXCEPTION_TAG_HEADER_NAME]
  return typeof tag === "string" && tag.length > 0 ? tag : undefined
}

/**
 * `chunks` without a closing exception block, failing with the server's error instead.
 * A chunk is passed on once the next has come, but for as many bytes as the block's
 * opening (which may be split between chunks); the last one whole once the stream has
 * ended. A result of one chunk is then one piece, so a reader of the first pieces sees
 * that it ended there: passing on all but the held bytes at once made every small
 * result two pieces, which the query path could only answer as a stream.
 */
export async function* withoutExceptionBlock(
  chunks: AsyncIterable<Uint8Array>,
  tag: string | undefined
): AsyncGenerator<Uint8Array> {
  if (tag === undefined) return yield* chunks
  const marker = opening(tag)
  // The newest bytes, none passed on yet, with no whole opening in them.
  let last: Buffer | undefined
  let block: Array<Buffer> | undefined
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (block !== undefined) {
      block.push(bytes)
      continue
    }
    let joined = bytes
    if (last !== undefined) {
      // An opening split between the chunks starts within the held bytes.
      const keep = Math.min(last.length, marker.length - 1)
      if (last.length > keep) yield last.subarray(0, last.length - keep)
      joined = keep === 0 ? bytes : Buffer.concat([last.subarray(last.length - keep), bytes])
    }
    const at = joined.indexOf(marker)
    if (at === -1) {
      last = joined
      continue
    }
    if (at > 0) yield joined.subarray(0, at)
    last = undefined
    block = [joined.subarray(at)]
  }
  if (block !== undefined) throw extractErrorAtTheEndOfChunk(Buffer.concat(block), tag)
  if (last !== undefined && last.length > 0) yield last
}
