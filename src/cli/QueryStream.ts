/**
 * Running one SQL statement and writing its result as it arrives: raw in a format the
 * API has, a table at a terminal, TSV into a pipe. The query carries an id chosen here,
 * so that an interrupt (Ctrl-C) cancels it on the server before the program exits.
 */
import { Effect, Fiber, Stream } from "effect"
import type { Readable } from "node:stream"
import { failure } from "./CliError.js"
import * as Http from "./Http.js"
import { dim, errorLine, write } from "./Output.js"
import type { Session } from "./Session.js"
import { dataScope } from "./Session.js"
import * as Table from "./Table.js"

export type Output =
  | { readonly _tag: "raw"; readonly format: string }
  | { readonly _tag: "table" }
  | { readonly _tag: "tsv" }

export interface Summary {
  readonly rows: number
  readonly readRows: number | undefined
  readonly readBytes: number | undefined
  readonly seconds: number
}

const chunksOf = (body: Readable) =>
  Stream.fromAsyncIterable(body as AsyncIterable<Buffer>, (e) =>
    failure(
      `The result was cut off: ${(e as Error).message}.`,
      "The server ended the query early; run it again."
    )
  )

export const cancel = (session: Session, queryId: string) =>
  Http.json(session, {
    method: "POST",
    path: "/v1/query/cancel",
    query: dataScope(session),
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query_id: queryId })
  }).pipe(
    Effect.timeout("3 seconds"),
    Effect.matchEffect({
      onSuccess: () => errorLine(dim(`Cancelled query ${queryId} on the server.`)),
      onFailure: () => errorLine(dim(`Query ${queryId} may still run on the server.`))
    })
  )

const countNewlines = (chunk: Uint8Array) => {
  let n = 0
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++
  return n
}

/**
 * The body straight to stdout, paused while stdout is full: per chunk no more than a
 * newline count, so a large result costs neither memory nor time here. Fails when the
 * server cut the result off (the reason is its last line, already written).
 */
const pump = (body: Readable) =>
  Effect.async<number, ReturnType<typeof failure>>((resume) => {
    let lines = 0
    body.on("data", (chunk: Buffer) => {
      lines += countNewlines(chunk)
      if (!process.stdout.write(chunk)) {
        body.pause()
        process.stdout.once("drain", () => body.resume())
      }
    })
    body.on("end", () => resume(Effect.succeed(lines)))
    body.on("error", () =>
      resume(
        Effect.fail(
          failure("The result was cut off.", "The server ended the query early; see its last line.")
        )
      )
    )
    return Effect.sync(() => body.destroy())
  })

const TABLE_SAMPLE = 200
// Rows that trickle in (a slow filter over a large table) are shown after this long
// rather than held until the sample is full.
const TABLE_SAMPLE_MS = 500

/** Rows of JSONEachRowWithProgress as an aligned table whose widths come from the first rows. */
const tableWriter = () => {
  let header: Array<string> | undefined
  let layout: Table.Layout | undefined
  let pending: Array<Array<string>> = []
  let pendingSince = 0
  let rest = ""
  const progress = {
    rows: 0,
    readRows: undefined as number | undefined,
    readBytes: undefined as number | undefined
  }
  let exception: string | undefined
  const flushPending = () => {
    if (header === undefined) return ""
    let out = ""
    if (layout === undefined) {
      layout = Table.layoutOf(header, pending)
      out += `${Table.headerLines(header, layout).join("\n")}\n`
    }
    for (const row of pending) {
      layout = Table.widen(layout, row)
      out += `${Table.rowLine(row, layout)}\n`
    }
    pending = []
    return out
  }
  const accept = (text: string) => {
    const record = JSON.parse(text) as {
      meta?: Array<{ name: string }>
      row?: Record<string, unknown>
      progress?: { read_rows?: string; read_bytes?: string }
      exception?: string
    }
    if (record.meta !== undefined) header = record.meta.map((m) => m.name)
    else if (record.row !== undefined) {
      progress.rows++
      if (pending.length === 0) pendingSince = performance.now()
      const row = record.row
      pending.push((header ?? Object.keys(row)).map((name) => Table.cell(row[name])))
    } else if (record.progress !== undefined) {
      progress.readRows = Number(record.progress.read_rows ?? 0)
      progress.readBytes = Number(record.progress.read_bytes ?? 0)
    } else if (record.exception !== undefined) exception = record.exception
  }
  return {
    progress,
    exception: () => exception,
    push: (chunk: Uint8Array) => {
      const lines = (rest + Buffer.from(chunk).toString("utf8")).split("\n")
      rest = lines.pop()!
      for (const text of lines) if (text !== "") accept(text)
      return layout === undefined &&
        (pending.length === 0 ||
          (pending.length < TABLE_SAMPLE && performance.now() - pendingSince < TABLE_SAMPLE_MS))
        ? ""
        : flushPending()
    },
    end: () => {
      if (rest !== "") accept(rest)
      rest = ""
      return flushPending()
    }
  }
}

export const run = (
  session: Session,
  sql: string,
  output: Output,
  queryId: string = crypto.randomUUID()
) =>
  Effect.gen(function* () {
    const format =
      output._tag === "raw"
        ? output.format
        : output._tag === "table"
          ? "JSONEachRowWithProgress"
          : "TSV"
    const started = performance.now()
    const response = yield* Http.send(session, {
      method: "POST",
      path: "/v1/query",
      query: dataScope(session),
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql, format, query_id: queryId })
    })
    if (response.status >= 400)
      return yield* Effect.fail(
        Http.errorOf(response.status, yield* Http.readText(response.body), session)
      )
    const hints = response.headers["x-service-hints"]
    if (typeof hints === "string")
      for (const hint of JSON.parse(hints) as Array<string>) yield* errorLine(dim(`hint: ${hint}`))
    let rows = 0
    let summary: Summary
    if (output._tag === "table") {
      const table = tableWriter()
      yield* chunksOf(response.body).pipe(
        Stream.runForEach((chunk) => {
          const out = table.push(chunk)
          return out === "" ? Effect.void : write(out)
        })
      )
      const last = table.end()
      if (last !== "") yield* write(last)
      const exception = table.exception()
      if (exception !== undefined) return yield* Effect.fail(failure(exception))
      rows = table.progress.rows
      summary = {
        rows,
        readRows: table.progress.readRows,
        readBytes: table.progress.readBytes,
        seconds: 0
      }
    } else {
      rows = yield* pump(response.body)
      summary = { rows, readRows: undefined, readBytes: undefined, seconds: 0 }
    }
    return { ...summary, seconds: (performance.now() - started) / 1000 }
  })

/**
 * `run`, and on an interrupt the cancel request goes out while the query's connection is
 * still open (closing it first would end the query unseen, and the cancel find nothing).
 */
export const runCancellable = (
  session: Session,
  sql: string,
  output: Output,
  queryId: string = crypto.randomUUID()
) =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      // A daemon: a child would be interrupted together with this fiber, closing the connection first.
      const running = yield* Effect.forkDaemon(restore(run(session, sql, output, queryId)))
      return yield* restore(Fiber.join(running)).pipe(
        Effect.onInterrupt(() =>
          Effect.zipRight(cancel(session, queryId), Fiber.interrupt(running))
        )
      )
    })
  )

export const footer = (summary: Summary) => {
  const read =
    summary.readRows === undefined
      ? ""
      : ` Read ${Table.countOf(summary.readRows, "row")}, ${Table.bytes(summary.readBytes ?? 0)}.`
  return dim(`${Table.countOf(summary.rows, "row")} in ${summary.seconds.toFixed(3)} s.${read}`)
}
