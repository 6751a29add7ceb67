/**
 * The records `insert` sends, cut into NDJSON batches of about `batchBytes` at record
 * boundaries: from files (JSON arrays or objects, NDJSON; gzip and zstd by extension),
 * the files of directories, or stdin. Each batch is named by its source's identity and
 * its place in it, so a rerun sends the same batches under the same names.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import type { Readable } from "node:stream"
import { PassThrough } from "node:stream"
import * as zlib from "node:zlib"
import { Decompress } from "fzstd"

export interface Source {
  readonly name: string
  /** Path, size and modification time: the same file gives the same batch names. */
  readonly identity: string | undefined
  /** Bytes as stored (compressed), for progress. */
  readonly size: number | undefined
  readonly open: () => Readable
}

export interface Batch {
  readonly body: Buffer
  readonly rows: number
  /** Offset of the batch's first record in the source's (decompressed) records. */
  readonly start: number
  readonly end: number
  /** The source's line of each of the batch's records (1-based); empty for a JSON array. */
  readonly lines: ReadonlyArray<number>
  /** The source's count of records before the batch's first. */
  readonly recordsBefore: number
}

const filesOf = (entry: string): Array<string> => {
  const stat = fs.statSync(entry)
  if (!stat.isDirectory()) return [entry]
  return fs
    .readdirSync(entry, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && !e.name.startsWith("."))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

export const sourcesOf = (entries: ReadonlyArray<string>): Array<Source> =>
  entries.length === 0 || (entries.length === 1 && entries[0] === "-")
    ? [{ name: "stdin", identity: undefined, size: undefined, open: () => process.stdin }]
    : entries.flatMap(filesOf).map((file) => {
        const stat = fs.statSync(file)
        return {
          name: file,
          identity: `${fs.realpathSync(file)}:${stat.size}:${stat.mtimeMs}`,
          size: stat.size,
          open: () => fs.createReadStream(file)
        }
      })

const zstdStream = () => {
  const out = new PassThrough()
  const decoder = new Decompress((chunk, final) => {
    out.write(chunk)
    if (final === true) out.end()
  })
  const input = new PassThrough()
  input.on("data", (chunk: Buffer) => decoder.push(chunk))
  input.on("end", () => {
    decoder.push(new Uint8Array(0), true)
    out.end()
  })
  input.on("error", (e) => out.destroy(e))
  return { input, output: out }
}

/** The decompressed bytes of a source, by its name's extension. */
export const decoded = (source: Source, raw: Readable): Readable => {
  if (/\.gz$/i.test(source.name)) return raw.pipe(zlib.createGunzip())
  if (/\.zst(d)?$/i.test(source.name)) {
    const { input, output } = zstdStream()
    raw.pipe(input)
    return output
  }
  return raw
}

/** A line of only whitespace, checked on its bytes (a string per line costs a million of them). */
const isBlank = (line: Uint8Array) => {
  for (const byte of line)
    if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return false
  return true
}

/** NDJSON batches; a file that is one JSON array (or object) is read whole and split by element. */
export async function* batchesOf(records: Readable, batchBytes: number): AsyncGenerator<Batch> {
  let pending: Array<Buffer> = []
  let pendingBytes = 0
  let rows = 0
  let start = 0
  let offset = 0
  let rest = Buffer.alloc(0)
  let first = true
  let line = 0
  let lines: Array<number> = []
  let recordsBefore = 0
  const cut = (): Batch => {
    const batch = { body: Buffer.concat(pending), rows, start, end: offset, lines, recordsBefore }
    recordsBefore += rows
    pending = []
    pendingBytes = 0
    rows = 0
    lines = []
    start = offset
    return batch
  }
  for await (const chunk of records as AsyncIterable<Buffer>) {
    let data = rest.length === 0 ? chunk : Buffer.concat([rest, chunk])
    if (first) {
      const lead = data.toString("utf8", 0, Math.min(64, data.length)).trimStart()
      if (lead.startsWith("[")) {
        const whole = [data]
        for await (const more of records as AsyncIterable<Buffer>) whole.push(more)
        const parsed = JSON.parse(Buffer.concat(whole).toString("utf8")) as unknown
        for (const record of Array.isArray(parsed) ? parsed : [parsed]) {
          const line = Buffer.from(`${JSON.stringify(record)}\n`)
          pending.push(line)
          pendingBytes += line.length
          rows++
          offset++
          if (pendingBytes >= batchBytes) yield cut()
        }
        if (rows > 0) yield cut()
        return
      }
      if (lead !== "") first = false
    }
    let lineStart = 0
    for (let i = data.indexOf(10); i !== -1; i = data.indexOf(10, lineStart)) {
      const text = data.subarray(lineStart, i + 1)
      offset += text.length
      lineStart = i + 1
      line++
      if (isBlank(text)) continue
      pending.push(text)
      lines.push(line)
      pendingBytes += text.length
      rows++
      if (pendingBytes >= batchBytes) yield cut()
    }
    rest = Buffer.from(data.subarray(lineStart))
    data = rest
  }
  if (rest.toString("utf8").trim() !== "") {
    pending.push(Buffer.concat([rest, Buffer.from("\n")]))
    lines.push(line + 1)
    rows++
    offset += rest.length
  }
  if (rows > 0) yield cut()
}

/** The insert token of a batch: a rerun of the same source sends the same one. */
export const tokenOf = (table: string, source: Source, batch: Batch) =>
  `sluice-cli-${createHash("sha256")
    .update(`${table}\n${source.identity ?? createHash("sha256").update(batch.body).digest("hex")}`)
    .digest("hex")
    .slice(0, 32)}-${batch.start}-${batch.end}`

/**
 * The server's words about a batch said of the source: a batch is the source's non-blank
 * lines from somewhere on, so its `record N (line L)` are the source's record
 * `recordsBefore + N` on the line the batch took it from. A byte offset into the batch
 * means nothing in the source (blank lines are not sent) and goes. Left as it is for a
 * JSON array, whose records are sent one per line.
 */
export const sourcePositions = (message: string, batch: Batch): string => {
  if (batch.lines.length === 0) return message
  const lineOf = (batchLine: string) => String(batch.lines[Number(batchLine) - 1] ?? batchLine)
  return message
    .replace(
      /\b([Rr]ecord) (\d+)\b/g,
      (_, word: string, record: string) => `${word} ${batch.recordsBefore + Number(record)}`
    )
    .replace(/\(line (\d+)\)/g, (_, batchLine: string) => `(line ${lineOf(batchLine)})`)
    .replace(
      /\(line (\d+), byte offset \d+\)/g,
      (_, batchLine: string) => `(line ${lineOf(batchLine)})`
    )
    .replace(
      /\(it starts at line (\d+), byte offset \d+\)/g,
      (_, batchLine: string) => `(it starts at line ${lineOf(batchLine)})`
    )
}
