/** External: a PostgreSQL control plane and a ClickHouse server or cluster. */
import { createClient } from "@clickhouse/client"
import { Redacted } from "effect"
import * as ServerProvisioner from "../src/provisioner/ServerProvisioner.js"
import * as ControlPlaneSql from "../src/store/ControlPlaneSql.js"

/** `SLUICE_DATABASE_URL`. */
export const ExternalControlPlaneLive = (url: Redacted.Redacted<string>) =>
  ControlPlaneSql.external({ url })

/** `SLUICE_CLICKHOUSE_URL`, `SLUICE_CLICKHOUSE_USER`, `SLUICE_CLICKHOUSE_PASSWORD`. */
export const ExternalProvisionerLive = (options: {
  readonly url: string
  readonly username: string
  readonly password: Redacted.Redacted<string>
}) =>
  ServerProvisioner.layer({
    accessControl: true,
    client: (login) =>
      createClient({
        url: options.url,
        username: login?.username ?? options.username,
        password: login?.password ?? Redacted.value(options.password)
      })
  })
