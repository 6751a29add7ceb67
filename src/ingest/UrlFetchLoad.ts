/**
 * Loads a fetched file into a table. JSON and NDJSON go through the body-insert path
 * as they stream. CSV, TSV and Parquet are written to a private temporary file that the
 * embedded engine reads with `file()` and writes back as NDJSON, one JSON object per
 * row, which then streams through the same insert path: the table layout is the same
 * whatever the format, and no result is held in memory.
 */
import { createReadStream } from "node:fs"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { createHash } from "node:crypto"
import { Effect, Stream } from "effect"
import type { ClusterScope } from "../../domain/Authorization.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { CommandRequest } from "../../domain/Engine.js"
import { BadRequest } from "../../domain/Errors.js"
import type { DatabaseName, TableName } from "../../domain/Ids.js"
import type { IngestWriter, RecordsFormat } from "../../domain/IngestWriter.js"
import { decodedBody } from "../body/ReadableBody.js"
import { insertBodyRules } from "./InsertBody.js"
import type { FetchedUrl } from "./UrlFetch.js"
import type { FetchError } from "./UrlFetchErrors.js"
import type { UrlFileKind } from "./UrlFetchFormat.js"
import { quoteString } from "../engine/Sql.js"

/** What a running load has done so far, for progress events. */
export interface LoadCounters {
  readBytes: number
  /** Records read so far where the format shows them (one per line), else 0. */
  rows: number
}

const engineFormat = { csv: "CSVWithNames", tsv: "TSVWithNames", parquet: "Parquet" } as const

const countLines =
  (counters: LoadCounters) =>
  <E>(stream: Stream.Stream<Uint8Array, E>) =>
    Stream.tap(stream, (bytes) =>
      Effect.sync(() => {
        for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) counters.rows++
      })
    )

const unreadable = (format: string, message: string) =>
  new BadRequest({
    message: `The file could not be read as ${format}: ${message}`,
    hint: "Check the file's format; CSV and TSV files need a header line."
  })

export const loadFetched = Effect.fn("UrlIngest.load")(function* (options: {
  readonly writer: IngestWriter["Type"]
  /** The cluster's engine, which converts CSV, TSV and Parquet. */
  readonly engine: AnalyticalEngine
  readonly scope: ClusterScope
  readonly database: DatabaseName
  readonly table: TableName
  readonly fetched: FetchedUrl
  readonly kind: UrlFileKind
  readonly maxBytes: number
  /** Whether the engine runs in this process and can read a local file. */
  readonly localFiles: boolean
  readonly counters: LoadCounters
  /** An insert token: the same token and file bytes insert once. */
  readonly token: string | undefined
}) {
  const { engine, kind, counters } = options
  // A fetch that fails mid-body (over the size limit, too slow) explains the failure of
  // the insert reading it, which may otherwise surface first as the truncated record.
  let fetchFailed: FetchError | undefined
  const received = options.fetched.body.pipe(
    Stream.tapError((error) => Effect.sync(() => (fetchFailed = error))),
    Stream.tap((bytes) => Effect.sync(() => (counters.readBytes += bytes.length)))
  )
  const hash = createHash("sha256")
  // `detectKind` only names compressions the reader takes, so it is never refused here.
  const decoded = yield* Effect.orDie(
    decodedBody(received, kind.compression, insertBodyRules(options.maxBytes), hash)
  )
  let digest: string | undefined
  // The hash covers the file as fetched; the token is checked once it has been read whole.
  const token =
    options.token === undefined
      ? undefined
      : { token: options.token, bodyHash: Effect.sync(() => (digest ??= hash.digest("hex"))) }
  const insert = <E>(bytes: Stream.Stream<Uint8Array, E>, format: RecordsFormat) =>
    options.writer
      .insertRecords(options.scope, options.database, options.table, { bytes, format, token })
      .pipe(
        Effect.map(({ inserted }) => inserted),
        Effect.catchAll((error) => Effect.fail(fetchFailed ?? error))
      )

  if (kind.format === "json") return yield* insert(decoded, "json")
  if (kind.format === "ndjson") return yield* insert(countLines(counters)(decoded), "ndjson")

  const format = engineFormat[kind.format]
  if (!options.localFiles) {
    return yield* new BadRequest({
      message: `URL ingest of ${kind.format} files needs the embedded engine in this version.`,
      hint: "Convert the file to NDJSON or a JSON array, or run with the embedded engine."
    })
  }
  const dir = yield* Effect.acquireRelease(
    Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "sluice-url-"))),
    (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
  )
  const file = path.join(dir, `data.${kind.format}`)
  const handle = yield* Effect.acquireRelease(
    Effect.promise(() => fs.open(file, "wx", 0o600)),
    (handle) => Effect.promise(() => handle.close())
  )
  yield* Stream.runForEach(decoded, (bytes) => Effect.promise(() => handle.write(bytes)))
  // The engine writes the rows as NDJSON to disk (a result read back through the client
  // would be held whole in memory on chDB); the file then streams into the insert.
  const converted = path.join(dir, "rows.ndjson")
  yield* engine
    .command(
      new CommandRequest({
        sql:
          `INSERT INTO FUNCTION file(${quoteString(converted)}, JSONEachRow) ` +
          `SELECT * FROM file(${quoteString(file)}, ${format})`,
        queryId: crypto.randomUUID(),
        settings: {
          // Big integers bare (exact in the JSON column), date-times as ISO strings.
          output_format_json_quote_64bit_integers: 0,
          date_time_output_format: "iso"
        }
      })
    )
    .pipe(Effect.mapError((error) => unreadable(kind.format, error.message)))
  const rows = Stream.fromAsyncIterable(
    createReadStream(converted, { highWaterMark: 1024 * 1024 }),
    () => unreadable(kind.format, "the converted rows could not be read back")
  ).pipe(
    Stream.map((chunk: Buffer) => new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length))
  )
  return yield* insert(countLines(counters)(rows), "ndjson")
}, Effect.scoped)
