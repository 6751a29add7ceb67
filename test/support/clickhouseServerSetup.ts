/**
 * Global setup of the `server` project: one ClickHouse test server for the whole run,
 * its address passed to the test processes (started after this) in their environment.
 */
import { Effect, Exit, Scope } from "effect"
import { startClickHouseServer } from "./clickhouseServer.js"
import { clickHouseUrlVariable } from "./engineSettings.js"

export default async function setup() {
  const scope = Effect.runSync(Scope.make())
  const server = await Effect.runPromise(Scope.extend(startClickHouseServer, scope))
  process.env[clickHouseUrlVariable] = server.url
  return async () => {
    delete process.env[clickHouseUrlVariable]
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}
