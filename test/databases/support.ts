/** Helpers shared by the databases suites: keys, sessions and a look inside the engine. */
import { expect } from "@effect/vitest"
import { Chunk, Context, Effect, Schema, Stream } from "effect"
import { CreatedApiKey } from "../../domain/api/KeysApi.js"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import type { Permission } from "../../domain/Identity.js"
import { ClusterId } from "../../domain/Ids.js"
import { TestServer, call } from "../support/server.js"

const Created = Schema.Struct({ key: CreatedApiKey })

export const createKey = (token: string, permission: Permission, query = "") =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", `/v1/keys${query}`, {
      token,
      body: { name: `${permission} key`, permission }
    })
    expect(reply.status, reply.text).toBe(201)
    return Schema.decodeUnknownSync(Created)(reply.json).key
  })

/** The engine of the caller's cluster, reached behind the API. */
export const engineOf = (adminToken: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const list = yield* call(server, "GET", "/v1/databases", { token: adminToken })
    const { cluster } = Schema.decodeUnknownSync(
      Schema.Struct({ cluster: Schema.Struct({ id: Schema.String }) })
    )(list.json)
    return yield* Context.get(server.context, Engines).forCluster(ClusterId.make(cluster.id))
  }).pipe(Effect.orDie)

/** Rows of a statement run straight on the caller's cluster's engine. */
export const engineRows = (adminToken: string, sql: string) =>
  Effect.gen(function* () {
    const engine = yield* engineOf(adminToken)
    const bytes = yield* Stream.runCollect(
      engine.query(new EngineQuery({ sql, format: "JSONEachRow", queryId: crypto.randomUUID() }))
    )
    const text = Chunk.toArray(bytes)
      .map((b) => new TextDecoder().decode(b))
      .join("")
    return text
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  }).pipe(Effect.orDie)
