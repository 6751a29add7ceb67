/** `insert TABLE [FILES…]`: records from files, directories or stdin, in batches that retry safely. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Fiber, Option } from "effect"
import type { InsertTransform } from "../../../domain/api/TablesApi.js"
import { badUsage, cannotRead, CliError, failure } from "../CliError.js"
import * as Http from "../Http.js"
import * as InsertSource from "../InsertSource.js"
import { errorLine } from "../Output.js"
import * as Progress from "../Progress.js"
import { dataScope, requireToken, resolve, scopeOptions } from "../Session.js"
import * as Table from "../Table.js"

const transforms = [
  "otlp-traces",
  "otlp-logs",
  "otlp-metrics",
  "cloud-logs",
  "cloud-audit",
  "delivery-stream"
] as const satisfies ReadonlyArray<InsertTransform>
const everyTransform: [Exclude<InsertTransform, (typeof transforms)[number]>] extends [never]
  ? true
  : never = true
void everyTransform

const readAll = (stream: NodeJS.ReadableStream) =>
  Effect.promise(async () => {
    const chunks: Array<Buffer> = []
    for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk)
    return Buffer.concat(chunks)
  })

export const insert = Command.make(
  "insert",
  {
    ...scopeOptions,
    table: Args.text({ name: "table" }).pipe(
      Args.withDescription("The table (created on first insert)")
    ),
    files: Args.text({ name: "files" }).pipe(
      Args.withDescription("JSON, NDJSON, .gz or .zst files, or directories; none or - for stdin"),
      Args.repeated
    ),
    batchBytes: Options.integer("batch-bytes").pipe(
      Options.withDescription("Bytes of records per request (keep it the same when rerunning)"),
      Options.withDefault(4 * 1024 * 1024)
    ),
    transform: Options.choice("transform", transforms).pipe(
      Options.withDescription("Send each file whole through this transform"),
      Options.optional
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      yield* requireToken(session)
      if (flags.batchBytes < 1024)
        return yield* Effect.fail(badUsage("--batch-bytes is at least 1024."))
      const sources = yield* Effect.try({
        try: () => InsertSource.sourcesOf(flags.files),
        catch: (e) => cannotRead((e as NodeJS.ErrnoException).path ?? "the input", e)
      })
      const total = sources.every((s) => s.size !== undefined)
        ? sources.reduce((n, s) => n + (s.size ?? 0), 0)
        : undefined
      const progress = Progress.make(`→ ${flags.table}`, total)
      let rows = 0
      let doneBytes = 0
      const post = (body: Buffer, contentType: string, query: Record<string, string | undefined>) =>
        Effect.flatMap(
          Http.json(session, {
            method: "POST",
            path: `/v1/tables/${encodeURIComponent(flags.table)}`,
            query: { ...dataScope(session), ...query },
            headers: { "content-type": contentType },
            body
          }),
          (answer) => Effect.succeed((answer as { inserted?: number }).inserted ?? 0)
        )
      for (const source of sources) {
        // Of several files, a refused one is named: the server's words are about a batch,
        // and "nothing was inserted" about that batch, not the rows sent before it.
        const named = (e: CliError) =>
          new CliError({
            ...e,
            message: sources.length > 1 ? `${source.name}: ${e.message}` : e.message,
            hint:
              rows === 0 && source === sources[0]
                ? e.hint
                : e.hint.replace(
                    "Nothing was inserted.",
                    "That batch was not inserted; the rows before it were, and the same command run again inserts them nothing twice."
                  )
          })
        const raw = source.open()
        let readBytes = 0
        raw.on("data", (chunk: Buffer) => (readBytes += chunk.length))
        const records = InsertSource.decoded(source, raw)
        if (Option.isSome(flags.transform)) {
          rows += yield* post(yield* readAll(records), "application/json", {
            transform: flags.transform.value
          }).pipe(Effect.mapError(named))
        } else {
          const batches = InsertSource.batchesOf(records, flags.batchBytes)
          // One batch is read and cut while the one before it is sent: at most two in
          // flight, each with its own token, so a rerun still inserts nothing twice.
          let sending: Fiber.RuntimeFiber<number, CliError> | undefined
          const sent = Effect.gen(function* () {
            if (sending === undefined) return
            rows += yield* Fiber.join(sending)
            sending = undefined
            progress.update(rows, doneBytes + readBytes)
          })
          while (true) {
            const next = yield* Effect.tryPromise({
              try: () => batches.next(),
              catch: (e) =>
                failure(
                  `${source.name}: ${e instanceof Error ? e.message : String(e)}`,
                  "Only JSON and NDJSON records (gzip or zstd compressed) are read."
                )
            })
            if (next.done === true) break
            const batch = next.value
            const fiber = yield* Effect.fork(
              Effect.as(
                post(batch.body, "application/x-ndjson", {
                  insert_deduplication_token: InsertSource.tokenOf(flags.table, source, batch)
                }).pipe(
                  Effect.mapError((e) =>
                    named(
                      new CliError({
                        ...e,
                        message: InsertSource.sourcePositions(e.message, batch)
                      })
                    )
                  )
                ),
                batch.rows
              )
            )
            yield* sent
            sending = fiber
          }
          yield* sent
        }
        doneBytes += source.size ?? readBytes
        progress.update(rows, doneBytes)
        if (sources.length > 1) progress.note(`${source.name}: done`)
      }
      progress.done()
      yield* errorLine(`Inserted ${Table.countOf(rows, "row")} into ${flags.table}.`)
    })
).pipe(
  Command.withDescription(
    "Insert JSON or NDJSON records (gzip, zstd; files, directories, stdin) in batches whose insert tokens make a rerun after Ctrl-C insert nothing twice. Example: sluice insert events data/*.ndjson.gz"
  )
)
