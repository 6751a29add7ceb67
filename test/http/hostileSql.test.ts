/**
 * Hostile input for the user-level SQL path: every function and table function the
 * engine lists in its own catalog, called by a read-only key with a file path, a URL and
 * a setting name. None may answer a file of the host, the data directory's path or a
 * 5xx, nor open a connection: a canary file and a listening socket say whether one did.
 * The engine's list is also held against the reviewed catalog, so an engine upgrade that
 * brings functions nobody reviewed fails here until the catalog is regenerated.
 */
import { randomUUID } from "node:crypto"
import * as fs from "node:fs"
import { createServer } from "node:net"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Catalog from "../../src/query/catalog/EngineCatalog.gen.js"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"

const dataDir = freshDataDir("hostile-sql")
const canaryDir = freshDataDir("hostile-sql-canary")
const canary = `canary-${randomUUID()}`
const canaryFile = path.join(canaryDir, "canary.txt")
fs.writeFileSync(canaryFile, `${canary}\n`)

const Names = Schema.Struct({ data: Schema.Array(Schema.Struct({ name: Schema.String })) })
const Created = Schema.Struct({ key: Schema.Struct({ token: Schema.String }) })

/** A loopback listener counting the connections anyone opens to it. */
const listener = Effect.acquireRelease(
  Effect.async<{ readonly url: string; readonly connections: () => number; close: () => void }>(
    (resume) => {
      let connections = 0
      const server = createServer((socket) => {
        connections++
        socket.destroy()
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${port}/x.tsv`,
            connections: () => connections,
            close: () => server.close()
          })
        )
      })
    }
  ),
  (held) => Effect.sync(held.close)
)

const quote = (s: string) => `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`

layer(TestServer.layer(dataDir), { excludeTestServices: true, timeout: 900_000 })(
  "hostile SQL",
  (it) => {
    it.scoped(
      "no function or table function of the engine reads the host, the network or the server",
      () =>
        Effect.gen(function* () {
          const server = yield* TestServer
          const admin = adminKeyOf(server)
          const names = (sql: string) =>
            Effect.map(call(server, "POST", "/v1/query", { token: admin, body: { sql } }), (r) =>
              Schema.decodeUnknownSync(Names)(r.json).data.map((row) => row.name)
            )
          const functions = yield* names("SELECT name FROM system.functions")
          const tableFunctions = yield* names("SELECT name FROM system.table_functions")
          const reviewed = new Set<string>(Catalog.FUNCTIONS)
          expect(functions.filter((name) => !reviewed.has(name))).toEqual([])
          expect(
            tableFunctions.filter((name) => !Catalog.TABLE_FUNCTIONS.includes(name as never))
          ).toEqual([])

          const created = yield* call(server, "POST", "/v1/keys", {
            token: admin,
            body: { name: "hostile-reader", permission: "read_only" }
          })
          const reader = Schema.decodeUnknownSync(Created)(created.json).key.token
          const net = yield* listener
          const args = [quote(canaryFile), quote(net.url), "'path'"]
          const statements = [
            ...functions.flatMap((name) => [
              ...args.map((arg) => `SELECT \`${name}\`(${arg})`),
              `SELECT \`${name}\`(${args[0]}, ${args[1]})`
            ]),
            ...tableFunctions.flatMap((name) => [
              ...args.map((arg) => `SELECT * FROM \`${name}\`(${arg}) LIMIT 1`),
              `SELECT * FROM \`${name}\`(${args[0]}, 'LineAsString') LIMIT 1`,
              `SELECT * FROM \`${name}\`(${args[1]}, 'LineAsString') LIMIT 1`
            ])
          ]
          const problems: Array<string> = []
          const statuses = new Map<number, number>()
          yield* Effect.forEach(
            statements,
            (sql) =>
              Effect.map(
                call(server, "POST", "/v1/query", { token: reader, body: { sql } }),
                (reply) => {
                  statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
                  if (reply.status >= 500) problems.push(`${sql}: ${reply.status} ${reply.text}`)
                  if (reply.text.includes(canary)) problems.push(`${sql}: read the canary file`)
                  if (reply.text.includes(dataDir)) problems.push(`${sql}: told the data path`)
                }
              ),
            { concurrency: 4, discard: true }
          )
          yield* Effect.log(
            `hostile SQL: ${statements.length} statements; statuses ${JSON.stringify([...statuses].sort())}`
          )
          expect(problems.slice(0, 20)).toEqual([])
          expect(net.connections()).toBe(0)
        }),
      900_000
    )
  }
)
