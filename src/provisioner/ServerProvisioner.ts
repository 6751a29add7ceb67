/**
 * The ClickHouse-server provisioner: each cluster is a namespace on a shared server
 * (`ServerNamespace.ts`). Starting a cluster creates or re-sizes its namespace and opens
 * an engine that logs in as the cluster's own user; stopping closes that engine;
 * destroying drops the namespace. The provisioner's own end closes every engine still
 * open (their clients and sessions: chDB's `:memory:` directory goes with the last).
 *
 * `accessControl: false` skips the user, profile and grant statements and uses the admin
 * connection for the cluster: for engines without access control (chDB, on which the
 * tests run this same data path) and servers whose user cannot manage access
 * (`SLUICE_CLICKHOUSE_ACCESS_CONTROL=off`), where the server does not keep clusters apart.
 */
import type { ClickHouseClient } from "@clickhouse/client"
import { Effect, ExecutionStrategy, Exit, Layer, Option, Scope, Stream } from "effect"
import { randomBytes } from "node:crypto"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { CommandRequest, EngineUnavailable, EngineQuery } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import { EngineStatus, Provisioner } from "../../domain/Provisioner.js"
import type { EngineSpec } from "../../domain/Provisioner.js"
import * as ClickHouseEngine from "../engine/ClickHouseEngine.js"
import * as TableDdl from "../engine/TableDdl.js"
import {
  databasePrefix,
  namespaceOf,
  provisionStatements,
  removeStatements
} from "./ServerNamespace.js"

export interface ServerProvisionerOptions {
  /** A client with the server's admin credentials, or as the named user. */
  readonly client: (login?: {
    readonly username: string
    readonly password: string
  }) => ClickHouseClient
  readonly accessControl: boolean
  /** How statements run on that server (e.g. a session per statement for chDB). */
  readonly statements?: ClickHouseEngine.ClickHouseEngineOptions
  /** `SLUICE_CLICKHOUSE_CLUSTER`: the server's cluster its DDL runs on (TableDdl.ts). */
  readonly clickhouseCluster?: string | undefined
}

interface Running {
  readonly engine: AnalyticalEngine
  readonly scope: Scope.CloseableScope
}

export const make = (options: ServerProvisionerOptions) =>
  Effect.gen(function* () {
    const admin = yield* ClickHouseEngine.make(options.client(), options.statements)
    // Each cluster's engine lives in a scope forked from this one: `stop` closes it early,
    // and the provisioner's end closes those still open (before the admin engine:
    // finalizers run in reverse).
    const provisionerScope = yield* Effect.scope
    const running = new Map<ClusterId, Running>()
    const notRunning = new EngineUnavailable({ message: "The cluster's engine is not running." })
    const failed = (error: { readonly message: string }) =>
      new EngineUnavailable({
        message: `The cluster's namespace could not be prepared: ${error.message}`
      })

    const run = (sql: string) => admin.command(new CommandRequest({ sql }))

    const open = (spec: EngineSpec) =>
      Effect.gen(function* () {
        const password = randomBytes(24).toString("base64url")
        const statements = provisionStatements(spec, password, options)
        const chosen = options.accessControl ? statements : statements.slice(-1)
        yield* Effect.forEach(chosen, run, { discard: true })
        const scope = yield* Scope.fork(provisionerScope, ExecutionStrategy.sequential)
        const client = options.accessControl
          ? options.client({ username: namespaceOf(spec.clusterId), password })
          : options.client()
        const cluster = options.clickhouseCluster
        const engine = yield* Scope.extend(
          ClickHouseEngine.make(client, {
            ...options.statements,
            databasePrefix: databasePrefix(spec.clusterId),
            ...(cluster === undefined
              ? {}
              : {
                  defaultSettings: {
                    ...options.statements?.defaultSettings,
                    ...TableDdl.topologySettings(options)
                  }
                })
          }),
          scope
        )
        return {
          engine: cluster === undefined ? engine : { ...engine, clickhouseCluster: cluster },
          scope
        }
      }).pipe(Effect.mapError(failed))

    const stop = (cluster: ClusterId) =>
      Effect.suspend(() => {
        const found = running.get(cluster)
        running.delete(cluster)
        return found === undefined ? Effect.void : Scope.close(found.scope, Exit.void)
      })

    const namespaceDatabases = (cluster: ClusterId) =>
      admin
        .query(
          new EngineQuery({
            sql: `SELECT name FROM system.databases WHERE startsWith(name, '${databasePrefix(cluster)}')`,
            format: "TabSeparated",
            queryId: crypto.randomUUID()
          })
        )
        .pipe(
          Stream.decodeText(),
          Stream.mkString,
          Effect.map((text) => text.split("\n").filter((line) => line.length > 0)),
          Effect.orDie
        )

    return Provisioner.of({
      start: (spec) =>
        running.has(spec.clusterId)
          ? Effect.void
          : Effect.map(open(spec), (opened) => void running.set(spec.clusterId, opened)),
      stop,
      destroy: (cluster) =>
        Effect.gen(function* () {
          yield* stop(cluster)
          const databases = yield* namespaceDatabases(cluster)
          const statements = removeStatements(cluster, databases, options)
          const chosen = options.accessControl ? statements : statements.slice(0, databases.length)
          yield* Effect.forEach(chosen, (sql) => Effect.ignore(run(sql)), { discard: true })
        }),
      engine: (cluster) =>
        Effect.suspend(() =>
          Option.match(Option.fromNullable(running.get(cluster)), {
            onNone: () => Effect.fail(notRunning),
            onSome: (r) => Effect.succeed(r.engine)
          })
        ),
      status: (cluster) =>
        Effect.sync(() => new EngineStatus({ running: running.has(cluster), message: null })),
      sample: () => Effect.succeed([])
    })
  })

export const layer = (options: ServerProvisionerOptions) => Layer.scoped(Provisioner, make(options))
