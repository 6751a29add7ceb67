/**
 * Which database a data request means (decisions.md §4): `?database=`, else the
 * `x-service-database` header, else the key's stored default, else `default`. Both
 * given and different is a 400; a name that does not exist in the cluster is a 404.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Schema } from "effect"
import { BadRequest, NotFound } from "../../domain/Errors.js"
import { DatabaseName } from "../../domain/Ids.js"
import { databasesOf } from "../identity/CallerDatabases.js"
import type { ClusterScope } from "../identity/Scopes.js"
import { DatabasesRepo } from "./DatabasesRepo.js"

export const DATABASE_HEADER = "x-service-database"

const decodeName = Schema.decodeUnknown(DatabaseName)

// Untraced: on every data request, and mostly in memory (see `Policy`).
export const selectDatabase = Effect.fnUntraced(function* (
  scope: ClusterScope,
  fromQuery: string | undefined
) {
  const request = yield* HttpServerRequest.HttpServerRequest
  const fromHeader = request.headers[DATABASE_HEADER]
  if (fromQuery !== undefined && fromHeader !== undefined && fromQuery !== fromHeader) {
    return yield* new BadRequest({
      message: `The database parameter ('${fromQuery}') and the ${DATABASE_HEADER} header ('${fromHeader}') disagree.`,
      hint: "Send one of them, or the same name in both."
    })
  }
  const chosen = fromQuery ?? fromHeader ?? scope.defaultDatabase ?? "default"
  const name = yield* decodeName(chosen).pipe(
    Effect.mapError(
      () =>
        new BadRequest({
          message: `'${chosen}' is not a valid database name.`,
          hint: "Names start with a letter and hold at most 64 letters, digits or underscores."
        })
    )
  )
  // An API key's authentication read its cluster's databases (at most a few seconds ago:
  // deleting a database clears that cache); a name not among them may be newer: ask.
  const known = databasesOf(scope.caller, scope.clusterId)
  const exists =
    known?.has(name) === true ||
    (yield* Effect.flatMap(DatabasesRepo, (databases) => databases.exists(scope.clusterId, name)))
  if (!exists) {
    return yield* new NotFound({
      message: `Database '${name}' not found in cluster '${scope.clusterName}'.`,
      hint: "GET /v1/databases lists the databases; POST /v1/databases creates one."
    })
  }
  return name
})
