/**
 * At start-up, after bootstrap (`layers/Startup.ts`): every database the control plane records exists in a
 * ClickHouse server (`default` included). chDB ships a `default` database and keeps the
 * ones created through the API in its data directory, so embedded engines are not opened
 * here (opening chDB binds the process to one data directory).
 */
import { Effect } from "effect"
import { enginesEmbedded, SluiceConfig } from "../config/SluiceConfig.js"
import { DatabasesRepo } from "./DatabasesRepo.js"
import { EngineDatabases } from "./EngineDatabases.js"

export const ensureEngineDatabases = Effect.gen(function* () {
  if (enginesEmbedded(yield* SluiceConfig)) return
  const repo = yield* DatabasesRepo
  const engine = yield* EngineDatabases
  const rows = yield* repo.all
  yield* Effect.forEach(
    rows,
    (row) =>
      engine
        .create({ clusterId: row.cluster_id }, row.name)
        .pipe(
          Effect.catchAll((error) =>
            Effect.logWarning(`Database '${row.name}' is not in the engine yet: ${error.message}`)
          )
        ),
    { discard: true }
  )
}).pipe(Effect.withSpan("EnsureEngineDatabases"))
