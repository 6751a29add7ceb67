/**
 * A `JSONEachRowWithProgress` answer read as it arrives: `{"progress":…}` lines, one
 * `{"meta":[…]}`, `{"row":{…}}` lines, and `{"exception":"…"}` when a started result
 * failed (its last line).
 */
export interface Column {
  readonly name: string
  readonly type: string
}

export interface Progress {
  readonly rowsRead: number
  readonly bytesRead: number
  readonly totalRows: number
  readonly elapsedSeconds: number
}

export class ResultBuffer {
  columns: ReadonlyArray<Column> = []
  readonly rows: Array<ReadonlyArray<unknown>> = []
  progress: Progress | null = null
  exception: string | null = null
  /** Bumped with every change, for views that redraw at most once a frame. */
  version = 0

  line(text: string) {
    if (text === "") return
    const record = JSON.parse(text) as {
      row?: Record<string, unknown>
      meta?: ReadonlyArray<Column>
      progress?: Record<string, string | number>
      exception?: string
    }
    if (record.row !== undefined) {
      const row = record.row
      this.rows.push(this.columns.map((column) => row[column.name]))
    } else if (record.meta !== undefined) this.columns = record.meta
    else if (record.progress !== undefined) {
      const p = record.progress
      this.progress = {
        rowsRead: Number(p.read_rows ?? 0),
        bytesRead: Number(p.read_bytes ?? 0),
        totalRows: Number(p.total_rows_to_read ?? 0),
        elapsedSeconds: Number(p.elapsed_ns ?? 0) / 1e9
      }
    } else if (record.exception !== undefined) this.exception = record.exception
    this.version++
  }
}

/** Splits bytes into lines across chunk boundaries. */
export const lineSplitter = (onLine: (line: string) => void) => {
  const decoder = new TextDecoder()
  let rest = ""
  return {
    push(chunk: Uint8Array) {
      const text = rest + decoder.decode(chunk, { stream: true })
      let start = 0
      for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", start)) {
        onLine(text.slice(start, at))
        start = at + 1
      }
      rest = text.slice(start)
    },
    end() {
      const last = rest + decoder.decode()
      rest = ""
      if (last !== "") onLine(last)
    }
  }
}

export const formatCell = (value: unknown): string =>
  value === null || value === undefined
    ? "NULL"
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value)

export const formatBytes = (bytes: number) => {
  const units = ["B", "KB", "MB", "GB", "TB"]
  let value = bytes
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`
}

export const formatCount = (n: number) => n.toLocaleString("en-US")

/** A count with its noun, singular for exactly one: "1 row", "2,048 rows". */
export const countOf = (n: number, noun: string) =>
  `${formatCount(n)} ${n === 1 ? noun : `${noun}s`}`

/**
 * Lines handled a slice at a time (`budgetMs` each), so a large chunk of rows never holds
 * the page for long: the rest waits for the next task, after the browser has drawn. A
 * line whose handler answers `true` ends its slice early (to draw what came so far).
 */
export const pacedLines = (onLine: (line: string) => boolean | void, budgetMs = 25) => {
  const queue: Array<string> = []
  let next = 0
  let scheduled = false
  let ended = false
  let done: (() => void) | null = null
  const channel = new MessageChannel()
  const pump = () => {
    scheduled = false
    const until = performance.now() + budgetMs
    while (next < queue.length && performance.now() < until)
      if (onLine(queue[next++]!) === true) break
    if (next > 10_000) {
      queue.splice(0, next)
      next = 0
    }
    if (next < queue.length) schedule()
    else if (ended) done?.()
  }
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    channel.port1.postMessage(null)
  }
  channel.port2.onmessage = pump
  const splitter = lineSplitter((line) => queue.push(line))
  return {
    // Handled at once when nothing waits (the first rows are drawn without a task's delay),
    // else after the lines before them.
    push(chunk: Uint8Array) {
      splitter.push(chunk)
      if (!scheduled) pump()
    },
    /** Resolves once every line has been handled. */
    end(): Promise<void> {
      splitter.end()
      ended = true
      return new Promise((resolve) => {
        done = () => {
          channel.port1.close()
          resolve()
        }
        if (next >= queue.length) done()
        else schedule()
      })
    },
    stop() {
      queue.length = 0
      next = 0
      channel.port1.close()
    }
  }
}
