/** External: a PostgreSQL control plane and a ClickHouse server or cluster. */
import { ClickHouseLogLevel, createClient } from "@clickhouse/client"
import { Effect, Layer, Option, Redacted } from "effect"
import { queryConfig } from "../src/config/SluiceConfig.js"
import { loggerClass } from "../src/engine/ClickHouseClientLog.js"
import { httpConnection } from "../src/engine/HttpConnection.js"
import * as ServerPreflight from "../src/provisioner/ServerPreflight.js"
import * as ServerProvisioner from "../src/provisioner/ServerProvisioner.js"
import { ControlPlaneEvents } from "../src/events/ControlPlaneEvents.js"
import * as ControlPlaneSql from "../src/store/ControlPlaneSql.js"

/** `SLUICE_DATABASE_URL`, shared with the other nodes, which hear of its changes. */
export const ExternalControlPlaneLive = (url: Redacted.Redacted<string>) =>
  ControlPlaneEvents.postgres.pipe(Layer.provideMerge(ControlPlaneSql.external({ url })))

/**
 * `SLUICE_CLICKHOUSE_URL`, `SLUICE_CLICKHOUSE_USER`, `SLUICE_CLICKHOUSE_PASSWORD`,
 * `SLUICE_CLICKHOUSE_ACCESS_CONTROL`, `SLUICE_CLICKHOUSE_CLUSTER`: the server is checked
 * first (`ServerPreflight`).
 */
export const ExternalProvisionerLive = (options: {
  readonly url: string
  readonly username: string
  readonly password: Redacted.Redacted<string>
  readonly accessControl: boolean
  readonly cluster: Option.Option<string>
}) =>
  Layer.unwrapScoped(
    Effect.gen(function* () {
      const LoggerClass = loggerClass(yield* Effect.runtime<never>())
      // A query stops itself at SLUICE_QUERY_TIMEOUT_SECONDS; the server then needs a
      // moment to say so, which the connection must wait for.
      const { timeoutSeconds } = yield* queryConfig
      const requestTimeoutMs = (timeoutSeconds + 30) * 1000
      const connect = (
        login: { readonly username: string; readonly password: string } | undefined,
        log: { readonly level?: ClickHouseLogLevel }
      ) => {
        const credentials = {
          url: options.url,
          username: login?.username ?? options.username,
          password: login?.password ?? Redacted.value(options.password)
        }
        return createClient({
          ...credentials,
          log: { LoggerClass, ...log },
          connection: httpConnection({ ...credentials, requestTimeoutMs })
        })
      }
      // The check's failure is the start's one line: the client's own would repeat it.
      const admin = yield* Effect.acquireRelease(
        Effect.sync(() => connect(undefined, { level: ClickHouseLogLevel.OFF })),
        (c) => Effect.promise(() => c.close())
      )
      yield* ServerPreflight.check(admin, {
        origin: new URL(options.url).origin,
        username: options.username,
        accessControl: options.accessControl
      })
      return ServerProvisioner.layer({
        accessControl: options.accessControl,
        clickhouseCluster: Option.getOrUndefined(options.cluster),
        client: (login) => connect(login, {}),
        statements: { cancelWaits: true }
      })
    })
  )
