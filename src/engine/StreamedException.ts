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
 * Holds back as many bytes as the block's opening, which may be split between chunks.
 */
export async function* withoutExceptionBlock(
  chunks: AsyncIterable<Uint8Array>,
  tag: string | undefined
): AsyncGenerator<Uint8Array> {
  if (tag === undefined) return yield* chunks
  const marker = opening(tag)
  let held: Buffer = Buffer.alloc(0)
  let block: Array<Buffer> | undefined
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    if (block !== undefined) {
      block.push(bytes)
      continue
    }
    const joined = held.length === 0 ? bytes : Buffer.concat([held, bytes])
    const at = joined.indexOf(marker)
    if (at !== -1) {
      if (at > 0) yield joined.subarray(0, at)
      block = [joined.subarray(at)]
      continue
    }
    const keep = Math.min(joined.length, marker.length - 1)
    if (joined.length > keep) yield joined.subarray(0, joined.length - keep)
    held = joined.subarray(joined.length - keep)
  }
  if (block !== undefined) throw extractErrorAtTheEndOfChunk(Buffer.concat(block), tag)
  if (held.length > 0) yield held
}
