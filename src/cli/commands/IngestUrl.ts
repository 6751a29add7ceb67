/** `ingest-url TABLE URL`: the server fetches the file and inserts it; its progress stream as lines. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import * as readline from "node:readline"
import type { Readable } from "node:stream"
import { failure } from "../CliError.js"
import type { CliError } from "../CliError.js"
import * as Http from "../Http.js"
import { errorLine } from "../Output.js"
import { dataScope, requireToken, resolve, scopeOptions } from "../Session.js"
import * as Table from "../Table.js"

interface LoadLine {
  readonly type?: string
  readonly query_id?: string
  readonly format?: string
  readonly written_rows?: number
  readonly read_bytes?: number
  readonly total_bytes?: number | null
  readonly message?: string
  readonly hint?: string
}

const describeLine = (event: LoadLine) => {
  const rows = Table.countOf(event.written_rows ?? 0, "row")
  const read = Table.bytes(event.read_bytes ?? 0)
  switch (event.type) {
    case "started":
      return `started: query ${event.query_id ?? "?"}, format ${event.format ?? "?"}`
    case "progress":
      return `progress: ${rows}, ${read}${
        typeof event.total_bytes === "number" ? ` of ${Table.bytes(event.total_bytes)}` : ""
      }`
    case "done":
      return `done: ${rows} inserted, ${read} read`
    default:
      return undefined
  }
}

/** Each line as it arrives; an `error` line or a cut-off stream fails. */
const follow = (body: Readable) =>
  Effect.tryPromise({
    try: async (signal) => {
      signal.addEventListener("abort", () => body.destroy())
      let done: LoadLine | undefined
      for await (const text of readline.createInterface({ input: body, crlfDelay: Infinity })) {
        if (text.trim() === "") continue
        const event = JSON.parse(text) as LoadLine
        if (event.type === "error") throw failure(event.message ?? "The load failed.", event.hint)
        const shown = describeLine(event)
        if (shown !== undefined) process.stderr.write(`${shown}\n`)
        if (event.type === "done") done = event
      }
      if (done === undefined) throw failure("The progress stream ended before the load did.")
      return done
    },
    catch: (e): CliError =>
      typeof e === "object" && e !== null && "_tag" in e && e._tag === "CliError"
        ? (e as CliError)
        : failure(`The progress stream broke: ${e instanceof Error ? e.message : String(e)}.`)
  })

export const ingestUrl = Command.make(
  "ingest-url",
  {
    ...scopeOptions,
    table: Args.text({ name: "table" }).pipe(Args.withDescription("The table (created if new)")),
    source: Args.text({ name: "url" }).pipe(
      Args.withDescription("An http(s) JSON, NDJSON, CSV, TSV or Parquet file")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      yield* requireToken(session)
      const response = yield* Http.send(session, {
        method: "POST",
        path: `/v1/tables/${encodeURIComponent(flags.table)}`,
        query: { ...dataScope(session), url: flags.source },
        headers: { accept: "application/x-ndjson" }
      })
      if (response.status >= 400)
        return yield* Effect.fail(
          Http.errorOf(response.status, yield* Http.readText(response.body), session)
        )
      const done = yield* follow(response.body)
      yield* errorLine(
        `Inserted ${Table.countOf(done.written_rows ?? 0, "row")} into ${flags.table}.`
      )
    })
).pipe(
  Command.withDescription(
    "Have the server fetch a file by URL and insert it, showing its progress. Example: sluice ingest-url events https://example.com/events.ndjson.gz"
  )
)
