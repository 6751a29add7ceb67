/**
 * Progress of a long operation on stderr: a bar redrawn in place at a terminal (rows,
 * bytes, rate, ETA), plain lines otherwise, so logs of scripted runs stay readable.
 */
import { stderrIsTTY } from "./Output.js"
import * as Table from "./Table.js"

export interface Progress {
  readonly update: (rows: number, bytes: number) => void
  readonly note: (text: string) => void
  readonly done: () => void
}

export const make = (label: string, totalBytes: number | undefined): Progress => {
  const started = performance.now()
  const tty = stderrIsTTY()
  let rows = 0
  let bytes = 0
  let drawn = 0
  const draw = (force: boolean) => {
    const now = performance.now()
    if (!tty || (!force && now - drawn < 100)) return
    drawn = now
    const seconds = (now - started) / 1000
    const rate = seconds > 0 ? bytes / seconds : 0
    const share =
      totalBytes !== undefined && totalBytes > 0 ? Math.min(1, bytes / totalBytes) : undefined
    const width = 24
    const bar =
      share === undefined
        ? ""
        : `[${"█".repeat(Math.round(share * width)).padEnd(width, "·")}] ${(share * 100).toFixed(0).padStart(3)}% `
    const eta =
      share !== undefined && rate > 0 && totalBytes !== undefined
        ? ` ETA ${Math.ceil((totalBytes - bytes) / rate)}s`
        : ""
    process.stderr.write(
      `\r\x1b[2K${label} ${bar}${Table.countOf(rows, "row")}, ${Table.bytes(bytes)}, ${Table.bytes(rate)}/s${eta}`
    )
  }
  return {
    update: (r, b) => {
      rows = r
      bytes = b
      draw(false)
    },
    note: (text) => {
      if (tty) process.stderr.write("\r\x1b[2K")
      process.stderr.write(`${text}\n`)
      draw(true)
    },
    done: () => {
      if (tty) process.stderr.write("\r\x1b[2K")
    }
  }
}
