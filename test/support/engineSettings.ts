/**
 * The cluster engines under the black-box suites: chDB, embedded, by default; in the
 * `server` vitest project, the one ClickHouse test server its global setup started
 * (`clickhouseServerSetup.ts`), with access control off (the test server's user cannot
 * manage access). Every test server's clusters are namespaces of their own there.
 */
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import type { ClusterId } from "../../domain/Ids.js"
import { databasePrefix } from "../../src/provisioner/ServerNamespace.js"

/** Set by the `server` project of test/vitest.config.ts. */
export const onClickHouseServer = process.env.SLUICE_TEST_ENGINE === "server"

/** Set by the `server` project's global setup: the test server's HTTP address. */
export const clickHouseUrlVariable = "SLUICE_TEST_CLICKHOUSE_URL"

const serverUrl = () => {
  const url = process.env[clickHouseUrlVariable]
  if (url === undefined || url === "") {
    throw new Error(`${clickHouseUrlVariable} is not set: the server project's setup starts one`)
  }
  return url
}

/** The `SLUICE_*` settings that put a server's cluster engines onto this run's engine. */
export const engineSettings = (): Record<string, string> =>
  onClickHouseServer
    ? { SLUICE_CLICKHOUSE_URL: serverUrl(), SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off" }
    : {}

/**
 * Whether a cluster's data is still stored: its engine's directory under `dataDir`, or on
 * the ClickHouse server its namespace's databases.
 */
export const clusterDataExists = (dataDir: string, cluster: ClusterId) =>
  onClickHouseServer
    ? Effect.promise(async () => {
        const sql = `SELECT count() FROM system.databases WHERE startsWith(name, '${databasePrefix(cluster)}')`
        const reply = await fetch(`${serverUrl()}/?query=${encodeURIComponent(sql)}`)
        return Number((await reply.text()).trim()) > 0
      })
    : Effect.sync(() => fs.existsSync(path.join(dataDir, "clusters", cluster)))
