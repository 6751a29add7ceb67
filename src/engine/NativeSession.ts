/** chDB's session calls as a `NativeSession`: real streaming and session statements. */
import type { ChdbExtension } from "chdb/connection"
import type { NativeSession } from "./Statements.js"

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

export const nativeSession = (chdb: ChdbExtension): NativeSession => ({
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
    rethrowing(() => chdb.queryAsync(sql, { format, signal })).then((result) => result.bytes())
})
