/** chDB's session calls as a `NativeSession`: real streaming and session statements. */
import type { ChdbExtension } from "chdb/connection"
import { randomUUID } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { insertStatement } from "./Sql.js"
import type { NativeInsert, NativeSession } from "./Statements.js"

// chDB's own errors carry a non-numeric `code` (`CHDB_STREAM`); the message has
// ClickHouse's code and name, which `toEngineError` reads when no field overrides them.
const plain = (error: unknown): Error =>
  new Error(error instanceof Error ? error.message : String(error))

const rethrowing = async <A>(work: () => Promise<A>): Promise<A> => {
  try {
    return await work()
  } catch (error) {
    throw plain(error)
  }
}

/**
 * A body in `file`, which the engine reads (`INSERT … FROM INFILE`), removed after the
 * statement: chDB's raw insert decodes a body as UTF-8 text, which breaks binary rows
 * (RowBinary failed at random rows, "Cannot read all data"). It is also far faster than
 * the same rows as `TabSeparated` through the raw insert.
 */
const insertFromFile = async (chdb: ChdbExtension, file: string, insert: NativeInsert) => {
  try {
    const sql = insertStatement(insert.request, insert.settings, file)
    await chdb.queryAsync(sql, { format: "TabSeparated", signal: insert.signal })
  } catch (error) {
    // The engine names the file it read; the path is the server's own business.
    throw new Error(plain(error).message.replaceAll(file, "(the insert's body)"))
  } finally {
    await fs.rm(file, { force: true })
  }
}

/** `bytes` in a new file of `files`, for `insertFromFile`. */
const bodyFile = async (files: string, bytes: Uint8Array) => {
  await fs.mkdir(files, { recursive: true, mode: 0o700 })
  const file = path.join(files, `${randomUUID()}.bin`)
  await fs.writeFile(file, bytes, { mode: 0o600 })
  return file
}

/** `files`: a directory of the engine's own for the bodies of binary inserts. */
export const nativeSession = (chdb: ChdbExtension, files: string): NativeSession => ({
  run: (sql) => rethrowing(() => chdb.queryAsync(sql, { format: "TabSeparated" })).then(() => {}),
  stream: (sql, format, signal) => ({
    async *[Symbol.asyncIterator]() {
      try {
        for await (const chunk of chdb.queryStream(sql, { format, signal })) yield chunk.raw()
      } catch (error) {
        throw plain(error)
      }
    }
  }),
  once: (sql, format, signal) =>
    rethrowing(() => chdb.queryAsync(sql, { format, signal })).then((result) => result.bytes()),
  insertFormats: new Set([...RAW_FORMATS, ...FILE_FORMATS]),
  insert: (insert: NativeInsert) => {
    const { body, request } = insert
    if (!(body instanceof Uint8Array)) {
      return rethrowing(() => insertFromFile(chdb, body.file, insert))
    }
    if (isFileFormat(request.format)) {
      return rethrowing(async () => insertFromFile(chdb, await bodyFile(files, body), insert))
    }
    const format = RAW_FORMATS.find((name) => name === request.format)
    if (format === undefined) return Promise.reject(new Error(`no raw insert of ${request.format}`))
    return rethrowing(() =>
      chdb.rawInsert({
        // Names of letters, digits and underscores: the engine's database and table names.
        table: `${request.database}.${request.table}`,
        values: body,
        format,
        settings: insert.settings,
        signal: insert.signal,
        ...(request.columns === undefined ? {} : { columns: request.columns })
      })
    ).then(() => {})
  }
})

/** Binary formats, which go to the engine as a file (`insertFromFile`). */
const FILE_FORMATS: ReadonlySet<string> = new Set(["RowBinary"])

/** Whether chDB takes bodies in `format` from a file, never as bytes. */
export const isFileFormat = (format: string) => FILE_FORMATS.has(format)

/**
 * The formats chDB's raw insert takes: the body goes to the engine as bytes, where the
 * SQL path decodes it to text and parses it as the end of one statement's text. The raw
 * insert took less time, and less varied, than that path.
 */
const RAW_FORMATS = [
  "JSONEachRow",
  "JSONCompactEachRow",
  "CSV",
  "CSVWithNames",
  "TSV",
  "TabSeparated",
  "TSVWithNames",
  "TabSeparatedWithNames"
] as const
