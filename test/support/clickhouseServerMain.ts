/**
 * `npm run clickhouse-server`: a ClickHouse server on loopback to try sluice's server
 * mode by hand, until Ctrl-C (which removes its directory).
 */
import { NodeRuntime } from "@effect/platform-node"
import { Console, Effect } from "effect"
import { startClickHouseServer } from "./clickhouseServer.js"

Effect.gen(function* () {
  const server = yield* startClickHouseServer
  const version = yield* Effect.promise(() =>
    fetch(`${server.url}/?query=SELECT+version()`).then((r) => r.text())
  )
  yield* Console.log(
    [
      `ClickHouse ${version.trim()} at ${server.url} (native protocol on port ${server.tcpPort})`,
      "Its user `default` cannot manage access; start sluice on it with",
      `  SLUICE_CLICKHOUSE_URL=${server.url} SLUICE_CLICKHOUSE_ACCESS_CONTROL=off npm start`,
      "Ctrl-C stops it and removes its data."
    ].join("\n")
  )
  return yield* Effect.never
}).pipe(Effect.scoped, NodeRuntime.runMain)
