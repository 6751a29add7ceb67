/** External engines: a ClickHouse server reached over HTTP. */
import { createClient } from "@clickhouse/client"
import { Effect, Layer, Redacted } from "effect"
import { Engines } from "../../domain/Engine.js"
import type { ClusterId } from "../../domain/Ids.js"
import * as ClickHouseEngine from "./ClickHouseEngine.js"

export const layer = (options: {
  readonly url: string
  readonly username: string
  readonly password: Redacted.Redacted<string>
}) =>
  Layer.scoped(
    Engines,
    Effect.gen(function* () {
      const client = createClient({
        url: options.url,
        username: options.username,
        password: Redacted.value(options.password)
      })
      const engine = yield* ClickHouseEngine.make(client)
      // Every cluster shares the server for now; per-cluster namespacing comes later.
      const forCluster = Effect.fn("Engines.forCluster")(function* (_cluster: ClusterId) {
        return engine
      })
      return Engines.of({ forCluster })
    })
  )
