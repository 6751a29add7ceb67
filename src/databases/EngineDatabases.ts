/** Creates and drops a cluster's databases inside its engine. */
import { Effect } from "effect"
import { CommandRequest, Engines } from "../../domain/Engine.js"
import type { AnalyticalEngine, EngineError } from "../../domain/Engine.js"
import type { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { Unavailable } from "../../domain/Errors.js"
import { engineAccessError } from "../engine/EngineAccess.js"
import { DatabaseEvents } from "./DatabaseEvents.js"
import * as TableDdl from "../engine/TableDdl.js"
import { engineDatabase } from "./EngineDatabase.js"

interface ClusterRefForEngine {
  readonly clusterId: ClusterId
}

const unavailable = (what: string) => (error: EngineError) =>
  new Unavailable({
    message: `The cluster's engine could not ${what}: ${error.message}`,
    hint: "Retry in a moment; if it keeps failing, check the cluster's status."
  })

export class EngineDatabases extends Effect.Service<EngineDatabases>()("sluice/EngineDatabases", {
  effect: Effect.gen(function* () {
    const engines = yield* Engines
    const events = yield* DatabaseEvents
    const run = (
      scope: ClusterRefForEngine,
      sql: (engine: AnalyticalEngine) => string,
      what: string
    ) =>
      engines.forCluster(scope.clusterId).pipe(
        Effect.mapError(engineAccessError),
        Effect.flatMap((engine) =>
          Effect.mapError(
            engine.command(new CommandRequest({ sql: sql(engine) })),
            unavailable(what)
          )
        )
      )
    return {
      /** Idempotent, so a retry after a half-done create succeeds. */
      create: Effect.fn("EngineDatabases.create")(function* (
        scope: ClusterRefForEngine,
        name: string
      ) {
        yield* run(
          scope,
          (engine) => TableDdl.createDatabase(engine, engineDatabase(engine, name)),
          "create the database"
        )
      }),
      /**
       * Drops the database and all its tables, waiting until the data is gone; then tells
       * those who keep something of it (`DatabaseEvents`).
       */
      drop: Effect.fn("EngineDatabases.drop")(function* (
        scope: ClusterRefForEngine,
        name: DatabaseName
      ) {
        yield* run(
          scope,
          (engine) => TableDdl.dropDatabase(engine, engineDatabase(engine, name)),
          "drop the database"
        )
        yield* events.publish({ cluster: scope.clusterId, database: name })
      })
    }
  })
}) {}
