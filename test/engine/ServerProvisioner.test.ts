import { expect, layer } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { randomUUID } from "node:crypto"
import { Engines } from "../../domain/Engine.js"
import { Layer } from "effect"
import * as ServerProvisioner from "../../src/provisioner/ServerProvisioner.js"
import { newClusterId, provisionedEngines, queryText } from "./helpers.js"

// No ClickHouse server can run here: this checks the HTTP path's failure mapping only.
const unreachable = provisionedEngines.pipe(
  Layer.provide(
    ServerProvisioner.layer({
      url: "http://127.0.0.1:1",
      username: "default",
      password: Redacted.make("")
    })
  )
)

layer(unreachable, { excludeTestServices: true })("ServerProvisioner", (it) => {
  it.effect("serves every cluster from the one server", () =>
    Effect.gen(function* () {
      const engines = yield* Engines
      expect(yield* engines.forCluster(newClusterId())).toBe(
        yield* engines.forCluster(newClusterId())
      )
    })
  )

  it.effect("an unreachable server fails statements and cancels with EngineError", () =>
    Effect.gen(function* () {
      const engine = yield* Effect.flatMap(Engines, (engines) => engines.forCluster(newClusterId()))
      const query = yield* Effect.flip(queryText(engine, "SELECT 1", "CSV"))
      expect(query._tag).toBe("EngineError")
      expect(query.message).toMatch(/ECONNREFUSED/)
      const cancel = yield* Effect.flip(engine.cancel(randomUUID()))
      expect(cancel._tag).toBe("EngineError")
    })
  )
})
