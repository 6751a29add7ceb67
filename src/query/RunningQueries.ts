/**
 * The queries running in this process, by the scope that started them: SQL queries and
 * URL loads (whose `started` line names their id). A client's `query_id` is only a name
 * within its organization, cluster and database: the engine runs each query under an id
 * of our own, so equal client ids never meet there. With other nodes on the control
 * plane, a cancel for a query this node does not run is asked of them (CancelElsewhere.ts).
 */
import { Effect, Option } from "effect"
import type { Scope } from "effect"
import { Conflict, NotFound, Unavailable } from "../../domain/Errors.js"
import type { ClusterId, DatabaseName, OrganizationId } from "../../domain/Ids.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { acquireRelease } from "../stream/ScopedRelease.js"
import { ControlPlaneEvents } from "../events/ControlPlaneEvents.js"
import { makeCancelElsewhere } from "./CancelElsewhere.js"
import type { Running } from "./CancelElsewhere.js"

export interface QueryScope {
  readonly organizationId: OrganizationId
  readonly clusterId: ClusterId
  readonly database: DatabaseName
}

export type { Running } from "./CancelElsewhere.js"

/** A query of that id runs in the same scope (here, or on a shared server). */
export const queryIdTaken = (queryId: string) =>
  new Conflict({
    message: `A query with id '${queryId}' is already running.`,
    hint: "Choose another query_id, or leave it out to have one generated."
  })

const keyOf = (scope: QueryScope, queryId: string) =>
  JSON.stringify([scope.organizationId, scope.clusterId, scope.database, queryId])

export class RunningQueries extends Effect.Service<RunningQueries>()("sluice/RunningQueries", {
  scoped: Effect.gen(function* () {
    const running = new Map<string, Running>()
    const otherNodes = Option.isSome((yield* SluiceConfig).databaseUrl)
    const elsewhere = yield* makeCancelElsewhere(yield* ControlPlaneEvents, (key) =>
      running.get(key)
    )

    const add = (scope: QueryScope, queryId: string, entry: Running) =>
      Effect.suspend(() => {
        const key = keyOf(scope, queryId)
        if (running.has(key)) return Effect.fail(queryIdTaken(queryId))
        running.set(key, entry)
        return Effect.succeed(key)
      })
    const remove = (key: string) => Effect.sync(() => running.delete(key))

    /** Registers a query for the enclosing scope; 409 while one with its id runs. */
    const register = (
      scope: QueryScope,
      queryId: string,
      entry: Running
    ): Effect.Effect<void, Conflict, Scope.Scope> =>
      Effect.asVoid(acquireRelease(add(scope, queryId, entry), remove))

    /** Runs `effect` with the query registered; 409 while one with its id runs. */
    const whileRegistered = <A, E, R>(
      scope: QueryScope,
      queryId: string,
      entry: Running,
      effect: Effect.Effect<A, E, R>
    ): Effect.Effect<A, E | Conflict, R> =>
      Effect.acquireUseRelease(add(scope, queryId, entry), () => effect, remove)

    const cancel = Effect.fn("RunningQueries.cancel")(function* (
      scope: QueryScope,
      queryId: string
    ) {
      const key = keyOf(scope, queryId)
      const entry = running.get(key)
      if (entry === undefined) {
        if (otherNodes && (yield* elsewhere.ask(key))) return
        return yield* new NotFound({
          message: `No query with id '${queryId}' is running in database '${scope.database}'.`,
          hint: "Only the organization, cluster and database that started a query may cancel it, while it runs."
        })
      }
      yield* entry.stop.pipe(
        Effect.mapError(
          (error) =>
            new Unavailable({
              message: `The query could not be cancelled: ${error.message}`,
              hint: "Retry the cancel."
            })
        )
      )
    })

    return { register, whileRegistered, cancel }
  })
}) {}
