/**
 * Bootstrap is idempotent and both engines keep their data across a clean restart of
 * the in-process server on the same data directory.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Context, Effect, Option, Stream } from "effect"
import { CommandRequest, Engines, InsertRequest, EngineQuery } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { adminKeyOf, call, freshDataDir, startServer } from "../support/server.js"

const counts = (sql: SqlClient.SqlClient) =>
  sql<{ orgs: number; users: number; clusters: number; keys: number; databases: number }>`
    select (select count(*)::int from organizations) as orgs,
           (select count(*)::int from users) as users,
           (select count(*)::int from clusters) as clusters,
           (select count(*)::int from api_keys) as keys,
           (select count(*)::int from databases) as databases`.pipe(Effect.map((rows) => rows[0]))

const engineOf = (context: Context.Context<Engines | SqlClient.SqlClient>) =>
  Effect.gen(function* () {
    const sql = Context.get(context, SqlClient.SqlClient)
    const [cluster] = yield* sql<{ id: string }>`select id from clusters where name = 'default'`
    return yield* Context.get(context, Engines).forCluster(ClusterId.make(cluster!.id))
  })

describe("restart", () => {
  it.live(
    "bootstraps once; the control plane and the engine find their data again",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-restart")
        const key = yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            expect(Option.isSome(server.firstStart)).toBe(true)
            const engine = yield* engineOf(server.context)
            yield* engine.command(
              new CommandRequest({
                sql: "CREATE TABLE IF NOT EXISTS default.survivors (raw JSON) ENGINE = MergeTree ORDER BY tuple()"
              })
            )
            yield* engine.insert(
              new InsertRequest({
                database: "default",
                table: "survivors",
                format: "JSONAsObject",
                queryId: "restart-insert"
              }),
              Stream.make(new TextEncoder().encode('{"a":1}\n{"a":2}\n'))
            )
            return adminKeyOf(server)
          })
        )

        yield* Effect.scoped(
          Effect.gen(function* () {
            const server = yield* startServer(dataDir)
            expect(Option.isNone(server.firstStart)).toBe(true)
            const sql = Context.get(server.context, SqlClient.SqlClient)
            expect(yield* counts(sql)).toEqual({
              orgs: 1,
              users: 1,
              clusters: 1,
              keys: 1,
              databases: 1
            })
            expect((yield* call(server, "GET", "/v1/keys", { token: key })).status).toBe(200)
            const engine = yield* engineOf(server.context)
            const bytes = yield* Stream.runCollect(
              engine.query(
                new EngineQuery({
                  sql: "SELECT sum(raw.a::Int64) AS total FROM default.survivors",
                  format: "JSONEachRow",
                  queryId: "restart-query"
                })
              )
            )
            const text = Buffer.concat(Chunk.toArray(bytes)).toString()
            expect(JSON.parse(text)).toEqual({ total: "3" })
          })
        )
      }),
    120_000
  )
})
