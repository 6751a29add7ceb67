/**
 * An engine that runs nothing: it keeps the statements it is given, in order, and
 * answers reads with `answer(sql)` (JSONEachRow text). For tests of statement text, such
 * as those a ClickHouse cluster would run, which no engine here can.
 */
import { Effect, Stream } from "effect"
import { InsertSummary } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"

export const recordingEngine = (
  clickhouseCluster: string | undefined,
  answer: (sql: string) => string = () => ""
) => {
  const statements: Array<string> = []
  const encoded = (sql: string) => new TextEncoder().encode(answer(sql))
  const engine: AnalyticalEngine = {
    databasePrefix: "",
    ...(clickhouseCluster === undefined ? {} : { clickhouseCluster }),
    query: (request) => Stream.make(encoded(request.sql)),
    queryWhole: (request) => Effect.sync(() => encoded(request.sql)),
    insert: () => Effect.dieMessage("recordingEngine: insert is not recorded"),
    insertWhole: (request) =>
      Effect.sync(() => {
        statements.push(`INSERT INTO ${request.database}.${request.table}`)
        return new InsertSummary({ writtenRows: 0, writtenBytes: 0 })
      }),
    command: (request) =>
      Effect.sync(() => {
        statements.push(request.sql)
      }),
    cancel: () => Effect.succeed(false)
  }
  return { engine, statements }
}
