/**
 * Decorators that report callers and scopes to the request log from the two places that
 * decide them, so every handler's requests are attributed without any handler code.
 * They wrap the `Authenticator` and `Authorization` layers (see layers/Capabilities.ts),
 * and the `QueryRunner`, whose statements name the tables a `table:` search finds.
 */
import { Effect, Layer } from "effect"
import { Authorization } from "../../domain/Authorization.js"
import { Authenticator } from "../../domain/Identity.js"
import { QueryRunner } from "../../domain/QueryRunner.js"
import { referencesOf } from "../query/HintsReferences.js"
import { statementWord } from "../query/SqlTokens.js"
import { reportCaller, reportExplain, reportScope, reportTables } from "./RequestAnnotations.js"

export const reportingAuthenticator = <E, R>(live: Layer.Layer<Authenticator, E, R>) =>
  Layer.effect(
    Authenticator,
    Effect.map(Authenticator, (inner) =>
      Authenticator.of({
        authenticate: (credential) => Effect.tap(inner.authenticate(credential), reportCaller)
      })
    )
  ).pipe(Layer.provide(live))

export const reportingAuthorization = <E, R>(live: Layer.Layer<Authorization, E, R>) =>
  Layer.effect(
    Authorization,
    Effect.map(Authorization, (inner) =>
      Authorization.of({
        ...inner,
        organizationScope: (...args) => Effect.tap(inner.organizationScope(...args), reportScope),
        clusterScope: (...args) => Effect.tap(inner.clusterScope(...args), reportScope)
      })
    )
  ).pipe(Layer.provide(live))

export const reportingQueryRunner = <E, R>(live: Layer.Layer<QueryRunner, E, R>) =>
  Layer.effect(
    QueryRunner,
    Effect.map(QueryRunner, (inner) =>
      QueryRunner.of({
        ...inner,
        run: (scope, database, statement) =>
          Effect.zipRight(
            Effect.zipRight(
              reportTables(referencesOf(statement.sql).tables.map((t) => t.table)),
              statementWord(statement.sql)?.text.toLowerCase() === "explain"
                ? reportExplain
                : Effect.void
            ),
            inner.run(scope, database, statement)
          )
      })
    )
  ).pipe(Layer.provide(live))
