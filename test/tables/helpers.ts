/** Shared steps of the tables suites: insert, describe, and a SQL probe behind the API. */
import { Context, Effect, Stream } from "effect"
import { expect } from "@effect/vitest"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { engineDatabase } from "../../src/databases/EngineDatabase.js"
import { QUERY_SETTINGS } from "../../src/tables/Layout.js"
import type { RunningServer } from "../support/server.js"
import { adminKeyOf, call } from "../support/server.js"

export const insert = (
  server: RunningServer,
  table: string,
  body: string | Uint8Array,
  headers: Record<string, string> = { "content-type": "application/json" },
  query = ""
) =>
  call(server, "POST", `/v1/tables/${table}${query}`, {
    token: adminKeyOf(server),
    rawBody: body,
    headers
  })

export const insertOk = (server: RunningServer, table: string, records: unknown) =>
  Effect.gen(function* () {
    const reply = yield* insert(server, table, JSON.stringify(records))
    expect(reply.json, reply.text).toEqual({
      inserted: Array.isArray(records) ? records.length : 1
    })
  })

/**
 * Runs SQL on the server's engine the way the query path will (with `QUERY_SETTINGS`), in
 * the cluster's `database` (on a ClickHouse server, a namespace's database).
 */
export const sql = (server: RunningServer, text: string, database = "default") =>
  Effect.gen(function* () {
    const engines = Context.get(server.context, Engines)
    const cluster = yield* Effect.promise(async () => {
      const reply = await fetch(`${server.url}/v1/keys`, {
        headers: { authorization: `Bearer ${adminKeyOf(server)}` }
      })
      const body = (await reply.json()) as { cluster: { id: string } }
      return body.cluster.id
    })
    const engine = yield* engines.forCluster(ClusterId.make(cluster))
    const text2 = yield* engine
      .query(
        new EngineQuery({
          sql: text,
          format: "JSONEachRow",
          queryId: crypto.randomUUID(),
          settings: QUERY_SETTINGS,
          database: engineDatabase(engine, database)
        })
      )
      .pipe(Stream.decodeText(), Stream.mkString)
    return text2
      .split("\n")
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
  })
