/**
 * Cuts a JSON body (one object, an array of objects, or objects one per line) into
 * chunks of whole records without parsing it: a byte scanner that follows strings,
 * escapes and bracket depth. Each chunk is a valid `JSONAsObject` body by itself, made
 * of slices of the input (no copies). What the scanner cannot see (a bad value inside
 * an object) the engine reports; `locate` turns its row number back into a line.
 */

import { MAX_JSON_DEPTH, tooDeepMessage } from "../body/JsonNesting.js"

export interface Chunk {
  readonly parts: ReadonlyArray<Uint8Array>
  /** Index (0-based) of the chunk's first record in the whole body. */
  readonly firstRecord: number
  readonly records: number
  /** 1-based line of each record's first byte. */
  readonly lines: ReadonlyArray<number>
  /** The body's last chunk of records (its array closed, or its end came). */
  readonly last: boolean
}

export class SplitError extends Error {}

const OPEN_BRACKET = new Uint8Array([0x5b])
const CLOSE_BRACKET = new Uint8Array([0x5d])

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/** Inside a record only strings, brackets and newlines change the scanner's state. */
const MATTERS_INSIDE_RECORD = new Uint8Array(256)
for (const c of [0x22, 0x7b, 0x7d, 0x5b, 0x5d, 0x0a]) MATTERS_INSIDE_RECORD[c] = 1

export class RecordSplitter {
  private mode: "start" | "array" | "objects" | "done" = "start"
  private depth = 0
  private inString = false
  private escaped = false
  private line = 1
  /** Byte offset of the current input's first byte in the whole body. */
  private base = 0
  private record = 0
  private chunkFirst = 0
  private chunkLines: Array<number> = []
  private parts: Array<Uint8Array> = []
  private bytes = 0
  private readonly closers: Array<number> = []
  private recordStart = { line: 1, offset: 0 }

  /** `lines`: one object per line (NDJSON), so a top-level array is refused. */
  constructor(
    private readonly chunkBytes: number,
    private readonly lines = false
  ) {}

  private fail(message: string, at = 0): never {
    throw new SplitError(`${message} (line ${this.line}, byte offset ${this.base + at})`)
  }

  /**
   * The index of the quote that closes the string being read, or -1 when `input` ends
   * inside it (whether its last byte escapes the next one is kept). Escaped newlines
   * are two bytes, and raw ones are invalid inside strings, so no lines are skipped.
   */
  private closeString(input: Uint8Array, from: number): number {
    if (from >= input.length) return -1
    let pos = from
    if (this.escaped) {
      this.escaped = false
      pos++
    }
    for (;;) {
      const quote = input.indexOf(0x22, pos)
      let k = (quote === -1 ? input.length : quote) - 1
      let backslashes = 0
      while (k >= pos && input[k] === 0x5c) {
        backslashes++
        k--
      }
      if (quote === -1) {
        this.escaped = backslashes % 2 === 1
        return -1
      }
      if (backslashes % 2 === 0) return quote
      pos = quote + 1
    }
  }

  private take(chunks: Array<Chunk>, last = false) {
    const records = this.record - this.chunkFirst
    if (records === 0) return
    const parts =
      this.mode === "array" || this.mode === "done"
        ? [OPEN_BRACKET, ...this.parts, CLOSE_BRACKET]
        : this.parts
    chunks.push({ parts, firstRecord: this.chunkFirst, records, lines: this.chunkLines, last })
    this.parts = []
    this.bytes = 0
    this.chunkFirst = this.record
    this.chunkLines = []
  }

  private startRecord(c: number, at: number) {
    if (c !== 0x7b) this.fail(`Record ${this.record} is not a JSON object`, at)
    this.chunkLines.push(this.line)
    this.recordStart = { line: this.line, offset: this.base + at }
  }

  /**
   * Reads on inside a record from `from` (not in a string) to the bracket that closes the
   * record, which it leaves for `push`: its index, or -1 when `input` ends first (the state
   * kept). One loop with its state in locals, strings read byte by byte: most strings of
   * a record are a few bytes, and going back to `push`'s loop around each one, with a
   * native `indexOf` for its end, cost more than reading them.
   */
  private scanRecord(input: Uint8Array, from: number): number {
    const base = this.mode === "array" ? 2 : 1
    const length = input.length
    let depth = this.depth
    let line = this.line
    let i = from
    while (i < length) {
      const c = input[i]!
      if (c === 0x22) {
        i++
        while (i < length) {
          const s = input[i]!
          if (s === 0x22) break
          i += s === 0x5c ? 2 : 1
        }
        if (i >= length) {
          this.inString = true
          this.escaped = i > length
          break
        }
      } else if (MATTERS_INSIDE_RECORD[c] === 1) {
        if (c === 0x0a) line++
        else if (c === 0x7b || c === 0x5b) {
          depth++
          // What reads the records later recurses per level (JsonNesting.ts).
          if (depth - base + 1 > MAX_JSON_DEPTH) {
            this.line = line
            this.fail(`Record ${this.record} is ${tooDeepMessage}`, i)
          }
          this.closers.push(c === 0x7b ? 0x7d : 0x5d)
        } else {
          if (depth === base) {
            this.depth = depth
            this.line = line
            return i
          }
          if (this.closers.pop() !== c) {
            this.line = line
            this.fail(`Unexpected '${String.fromCharCode(c)}'`, i)
          }
          depth--
        }
      }
      i++
    }
    this.depth = depth
    this.line = line
    return -1
  }

  /** Scans `input`; returns the chunks completed so far. Throws `SplitError`. */
  push(input: Uint8Array): Array<Chunk> {
    const chunks: Array<Chunk> = []
    let spanStart = 0
    const length = input.length
    for (let i = 0; i < length; i++) {
      if (this.inString) {
        const end = this.closeString(input, i)
        if (end === -1) break
        this.inString = false
        i = end
        continue
      }
      if (this.depth > (this.mode === "array" ? 1 : 0)) {
        i = this.scanRecord(input, i)
        if (i === -1) break
      }
      const c = input[i]!
      if (c === 0x0a) this.line++
      if (isSpace(c)) continue
      const topLevel = this.mode === "array" ? this.depth === 1 : this.depth === 0
      if (this.mode === "done") this.fail("Unexpected data after the closing ]", i)
      if (this.mode === "start") {
        if (c === 0x5b && !this.lines) {
          this.mode = "array"
          this.depth = 1
          this.closers.push(0x5d)
          spanStart = i + 1
          continue
        }
        this.mode = "objects"
      }
      if (topLevel && this.mode === "array" && (c === 0x2c || c === 0x5d)) {
        if (c === 0x2c && this.record === 0 && this.chunkLines.length === 0) {
          this.fail("Expected a JSON object before ','", i)
        }
        if (c === 0x5d) {
          this.parts.push(input.subarray(spanStart, i))
          spanStart = i + 1
          this.closers.pop()
          this.depth = 0
          this.mode = "done"
          this.take(chunks, true)
        } else if (this.bytes + (i - spanStart) >= this.chunkBytes) {
          this.parts.push(input.subarray(spanStart, i))
          spanStart = i + 1
          this.take(chunks)
        }
        continue
      }
      if (topLevel) this.startRecord(c, i)
      if (c === 0x22) this.inString = true
      else if (c === 0x7b || c === 0x5b) {
        this.depth++
        // What reads the records later recurses per level (JsonNesting.ts).
        if (this.depth - (this.mode === "array" ? 1 : 0) > MAX_JSON_DEPTH) {
          this.fail(`Record ${this.record} is ${tooDeepMessage}`, i)
        }
        this.closers.push(c === 0x7b ? 0x7d : 0x5d)
      } else if (c === 0x7d || c === 0x5d) {
        if (this.closers.pop() !== c) this.fail(`Unexpected '${String.fromCharCode(c)}'`, i)
        this.depth--
        const closedRecord = this.mode === "array" ? this.depth === 1 : this.depth === 0
        if (closedRecord) this.record++
        if (closedRecord && this.mode === "objects") {
          if (this.bytes + (i + 1 - spanStart) >= this.chunkBytes) {
            this.parts.push(input.subarray(spanStart, i + 1))
            spanStart = i + 1
            this.take(chunks)
          }
        }
      }
    }
    this.base += input.length
    if (spanStart < input.length) {
      this.parts.push(input.subarray(spanStart))
      this.bytes += input.length - spanStart
    }
    return chunks
  }

  /** Ends the body; returns the last chunk. Throws `SplitError` for an incomplete body. */
  end(): Array<Chunk> {
    if (this.mode === "start") this.fail("The body is empty")
    if (this.inString) this.fail("Unterminated string at the end of the body")
    const insideRecord = this.depth > (this.mode === "array" ? 1 : 0)
    if (this.mode === "array" && !insideRecord) this.fail("The array is not closed with ]")
    if (insideRecord) {
      // Where the object starts, not where the body ends (a line further on after a final newline).
      const { line, offset } = this.recordStart
      throw new SplitError(
        `Record ${this.record} is not closed with } before the body ends (it starts at line ${line}, byte offset ${offset})`
      )
    }
    if (this.record === 0) this.fail("The array holds no records")
    const chunks: Array<Chunk> = []
    this.take(chunks, true)
    return chunks
  }

  get totalRecords() {
    return this.record
  }
}

/** The record and line of the engine's 1-based `(at row n)` within `chunk`. */
export const locate = (chunk: Chunk, row: number) => {
  const index = Math.min(Math.max(row - 1, 0), chunk.records - 1)
  return { record: chunk.firstRecord + index, line: chunk.lines[index] ?? 1 }
}
