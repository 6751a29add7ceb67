/**
 * NDJSON rows (one object a line, as `JSONEachRow` streams them) as one JSON array,
 * chunk by chunk: nothing is held but a line's last bytes, so a whole result of any size
 * goes through in flat memory.
 */
export const jsonArray = () => {
  const decoder = new TextDecoder()
  const encoder = new TextEncoder()
  let first = true
  let pending = ""
  const rows = (lines: ReadonlyArray<string>) => {
    let out = ""
    for (const line of lines) {
      if (line === "") continue
      out += first ? `[\n${line}` : `,\n${line}`
      first = false
    }
    return out
  }
  return new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) => {
      const lines = (pending + decoder.decode(chunk, { stream: true })).split("\n")
      pending = lines.pop() ?? ""
      const out = rows(lines)
      if (out !== "") controller.enqueue(encoder.encode(out))
    },
    flush: (controller) => {
      const out = rows([pending + decoder.decode()])
      controller.enqueue(encoder.encode(`${out}${first ? "[" : ""}\n]\n`))
    }
  })
}

/** Counts the bytes going through, for a progress line. */
export const counted = (onBytes: (bytes: number) => void) => {
  let bytes = 0
  return new TransformStream<Uint8Array, Uint8Array>({
    transform: (chunk, controller) => {
      bytes += chunk.byteLength
      onBytes(bytes)
      controller.enqueue(chunk)
    }
  })
}
