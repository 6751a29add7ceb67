/**
 * Databases over HTTP: list, create (also in the engine), delete (its data too), the
 * protected `default`, permissions, and keys whose default database went away.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { CommandRequest } from "../../domain/Engine.js"
import { engineDatabase, quotedEngineDatabase } from "../../src/databases/EngineDatabase.js"
import { TestServer, adminKeyOf, call, createDatabase } from "../support/server.js"
import { createKey, engineOf, engineRows } from "./support.js"

/** Every database the engine has (on a ClickHouse server, every cluster's and its own). */
const allEngineDatabases = (admin: string) =>
  Effect.map(engineRows(admin, "SELECT name FROM system.databases"), (rows) =>
    rows.map((row) => String(row.name))
  )

/** The cluster's databases in its engine, by their names in the API. */
const engineDatabases = (admin: string) =>
  Effect.gen(function* () {
    const prefix = (yield* engineOf(admin)).databasePrefix
    const names = yield* allEngineDatabases(admin)
    return names.filter((name) => name.startsWith(prefix)).map((name) => name.slice(prefix.length))
  })

layer(TestServer.layer(), { excludeTestServices: true, timeout: 120_000 })("databases", (it) => {
  it.effect("lists the cluster's databases with the organization and cluster", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "GET", "/v1/databases", { token: adminKeyOf(server) })
      expect(reply.status).toBe(200)
      expect(reply.json).toEqual({
        databases: [{ name: "default", s3_storage: null }],
        organization: { name: "default" },
        cluster: { id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "default" }
      })
    })
  )

  it.effect("creates a database in the control plane and the engine; a duplicate is 409", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const created = yield* call(server, "POST", "/v1/databases", {
        token: admin,
        body: { name: "analytics" }
      })
      expect(created.status).toBe(201)
      expect(created.json).toEqual({
        name: "analytics",
        database: { name: "analytics", s3_storage: null },
        organization: { name: "default" }
      })
      const list = yield* call(server, "GET", "/v1/databases", { token: admin })
      expect(list.json).toMatchObject({ databases: [{ name: "analytics" }, { name: "default" }] })
      expect(yield* engineDatabases(admin)).toContain("analytics")
      const again = yield* call(server, "POST", "/v1/databases", {
        token: admin,
        body: { name: "analytics" }
      })
      expect(again.status).toBe(409)
      expect(again.json).toMatchObject({
        error: "conflict",
        message: expect.stringContaining("analytics")
      })
    })
  )

  it.effect("an invalid name is a 400 that names the rule", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      for (const name of ["1abc", "has-dash", "a".repeat(65), ""]) {
        const reply = yield* call(server, "POST", "/v1/databases", { token: admin, body: { name } })
        expect(reply.status, name).toBe(400)
        expect(reply.json).toMatchObject({
          error: "bad_request",
          message: expect.stringContaining("names start with a letter")
        })
      }
      const badPath = yield* call(server, "DELETE", "/v1/databases/no-such!", { token: admin })
      expect(badPath.status).toBe(400)
    })
  )

  it.effect("deleting a database drops its tables and data; again is 404", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      yield* call(server, "POST", "/v1/databases", { token: admin, body: { name: "scratch" } })
      const rows = yield* engineRows(admin, "SELECT 1 AS one")
      expect(rows).toEqual([{ one: 1 }])
      const engine = yield* engineOf(admin)
      const scratch = quotedEngineDatabase(engine, "scratch")
      yield* engine.command(
        new CommandRequest({
          sql: `CREATE TABLE ${scratch}.t (x UInt8) ENGINE = MergeTree ORDER BY tuple()`
        })
      )
      yield* engine.command(new CommandRequest({ sql: `INSERT INTO ${scratch}.t VALUES (1)` }))
      const deleted = yield* call(server, "DELETE", "/v1/databases/scratch", { token: admin })
      expect(deleted.status).toBe(200)
      expect(deleted.json).toEqual({ deleted: true })
      expect(yield* engineDatabases(admin)).not.toContain("scratch")
      const after = yield* call(server, "GET", "/v1/databases", { token: admin })
      expect(JSON.stringify(after.json)).not.toContain("scratch")
      const again = yield* call(server, "DELETE", "/v1/databases/scratch", { token: admin })
      expect(again.status).toBe(404)
      // The same name can be created again, empty.
      const recreated = yield* call(server, "POST", "/v1/databases", {
        token: admin,
        body: { name: "scratch" }
      })
      expect(recreated.status).toBe(201)
      const tables = yield* engineRows(
        admin,
        `SELECT name FROM system.tables WHERE database = '${engineDatabase(engine, "scratch")}'`
      )
      expect(tables).toEqual([])
    })
  )

  it.effect("the default database cannot be deleted", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const reply = yield* call(server, "DELETE", "/v1/databases/default", {
        token: adminKeyOf(server)
      })
      expect(reply.status).toBe(409)
      expect(reply.json).toMatchObject({ error: "conflict", hint: expect.any(String) })
      expect(yield* engineDatabases(adminKeyOf(server))).toContain("default")
    })
  )

  it.effect("the engine's own databases are refused on create and delete, in any case", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      for (const name of ["system", "SYSTEM", "information_schema", "INFORMATION_SCHEMA"]) {
        const create = yield* call(server, "POST", "/v1/databases", {
          token: admin,
          body: { name }
        })
        expect(create.status, name).toBe(400)
        expect(create.json).toMatchObject({
          error: "bad_request",
          message: expect.stringContaining(`'${name}' is reserved`)
        })
        const drop = yield* call(server, "DELETE", `/v1/databases/${name}`, { token: admin })
        expect(drop.status, name).toBe(400)
        expect(drop.json).toMatchObject({ message: expect.stringContaining(`'${name}'`) })
      }
      const list = yield* call(server, "GET", "/v1/databases", { token: admin })
      expect(JSON.stringify(list.json)).not.toMatch(/system|information_schema/i)
      expect(yield* allEngineDatabases(admin)).toEqual(
        expect.arrayContaining(["system", "information_schema", "INFORMATION_SCHEMA"])
      )
    })
  )

  it.effect("read_only and read_write keys list but may not create or delete", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      yield* call(server, "POST", "/v1/databases", { token: admin, body: { name: "guarded" } })
      for (const permission of ["read_only", "read_write"] as const) {
        const key = yield* createKey(admin, permission)
        const list = yield* call(server, "GET", "/v1/databases", { token: key.token })
        expect(list.status).toBe(200)
        const create = yield* call(server, "POST", "/v1/databases", {
          token: key.token,
          body: { name: "nope" }
        })
        expect(create.status).toBe(403)
        expect(create.json).toMatchObject({ message: expect.stringContaining(permission) })
        const del = yield* call(server, "DELETE", "/v1/databases/guarded", { token: key.token })
        expect(del.status).toBe(403)
      }
      const writeOnly = yield* createKey(admin, "write_only")
      const list = yield* call(server, "GET", "/v1/databases", { token: writeOnly.token })
      expect(list.status).toBe(403)
      const none = yield* call(server, "GET", "/v1/databases")
      expect(none.status).toBe(401)
      const still = yield* call(server, "GET", "/v1/databases", { token: admin })
      expect(JSON.stringify(still.json)).toContain("guarded")
    })
  )

  it.effect(
    "a key whose default database was deleted stays valid and gets 404 until it names another",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = adminKeyOf(server)
        yield* call(server, "POST", "/v1/databases", { token: admin, body: { name: "shortlived" } })
        const key = yield* createKey(admin, "admin", "?database=shortlived")
        expect(key.default_database).toBe("shortlived")
        const deleted = yield* call(server, "DELETE", "/v1/databases/shortlived", { token: admin })
        expect(deleted.status).toBe(200)
        const list = yield* call(server, "GET", "/v1/databases", { token: key.token })
        expect(list.status).toBe(200)
        const body = { name: "k", permission: "read_only" }
        const data = yield* call(server, "POST", "/v1/keys", { token: key.token, body })
        expect(data.status).toBe(404)
        expect(data.json).toMatchObject({ message: expect.stringContaining("shortlived") })
        const named = yield* call(server, "POST", "/v1/keys?database=default", {
          token: key.token,
          body
        })
        expect(named.status).toBe(201)
      })
  )

  it.effect("a query names another database of its cluster as the API names it", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      const insert = (path: string, rows: ReadonlyArray<object>) =>
        Effect.flatMap(call(server, "POST", path, { token: admin, body: rows }), (reply) =>
          Effect.sync(() => expect(reply.status, reply.text).toBeLessThan(300))
        )
      const created = yield* call(server, "POST", "/v1/databases", {
        token: admin,
        body: { name: "catalog" }
      })
      expect(created.status).toBe(201)
      yield* insert("/v1/tables/items?database=catalog", [
        { id: 1, name: "lamp" },
        { id: 2, name: "desk" }
      ])
      yield* insert("/v1/tables/orders", [
        { order: 10, item: 2 },
        { order: 11, item: 1 },
        { order: 12, item: 2 }
      ])
      const query = (sql: string) =>
        call(server, "POST", "/v1/query", { token: admin, body: { sql, format: "JSONEachRow" } })
      const lines = (text: string) =>
        text
          .split("\n")
          .filter((line) => line.length > 0)
          .map((line) => JSON.parse(line) as Record<string, unknown>)

      // Selected: default. `catalog.items` is the other database, whatever the engine calls it.
      const joined = yield* query(
        "SELECT o.order AS o, i.name AS name FROM orders AS o " +
          "JOIN catalog.items AS i ON toInt64(o.item) = toInt64(i.id) ORDER BY o.order"
      )
      expect(joined.status, joined.text).toBe(200)
      expect(lines(joined.text)).toEqual([
        { o: "10", name: "desk" },
        { o: "11", name: "lamp" },
        { o: "12", name: "desk" }
      ])
      const quoted = yield* query("SELECT count() AS n FROM `catalog`.items, default.orders")
      expect(lines(quoted.text)).toEqual([{ n: "6" }])
      const tables = yield* query("SHOW TABLES FROM catalog")
      expect(lines(tables.text).map((row) => row.name)).toContain("items")
      const described = yield* query("DESCRIBE TABLE catalog.items")
      expect(lines(described.text).map((row) => row.name)).toEqual(
        expect.arrayContaining(["id", "name"])
      )
      const exists = yield* query("EXISTS catalog.items")
      expect(lines(exists.text)).toEqual([{ result: 0 + 1 }])
      // The engine's own database keeps its name; a string or a JSON path is not a table.
      const untouched = yield* query(
        "SELECT 'FROM catalog.items' AS s, number AS n FROM system.numbers LIMIT 1"
      )
      expect(lines(untouched.text)).toEqual([{ s: "FROM catalog.items", n: "0" }])

      // A database that does not exist is named as the user wrote it, nothing more.
      const missing = yield* query("SELECT * FROM nowhere.items")
      expect(missing.status).toBe(400)
      expect(missing.text).toContain("nowhere")
      expect(missing.text).not.toContain("sluice_")
    })
  )

  it.effect("SHOW TABLES and SHOW DATABASES answer as the API lists, without sluice's own", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = adminKeyOf(server)
      yield* createDatabase(server, "shown")
      // A token makes the insert-token table, an internal one, in `shown`.
      for (const table of ["events", "errors"]) {
        const inserted = yield* call(
          server,
          "POST",
          `/v1/tables/${table}?database=shown&insert_deduplication_token=t-${table}`,
          { token: admin, body: [{ n: 1 }] }
        )
        expect(inserted.status, inserted.text).toBe(200)
      }
      const engine = yield* engineOf(admin)
      const internal = yield* engineRows(
        admin,
        `SELECT name FROM system.tables WHERE database = '${engineDatabase(engine, "shown")}' ` +
          `AND startsWith(name, '__')`
      )
      expect(internal.length, "the engine holds internal tables to hide").toBeGreaterThan(0)

      const names = (sql: string, database?: string) =>
        Effect.map(
          call(
            server,
            "POST",
            `/v1/query${database === undefined ? "" : `?database=${database}`}`,
            {
              token: admin,
              body: { sql, format: "JSONEachRow" }
            }
          ),
          (reply) => {
            expect(reply.status, reply.text).toBe(200)
            return reply.text
              .split("\n")
              .filter((line) => line.length > 0)
              .map((line) => String((JSON.parse(line) as { name: unknown }).name))
          }
        )
      expect(yield* names("SHOW TABLES FROM shown")).toEqual(["errors", "events"])
      expect(yield* names("SHOW TABLES", "shown")).toEqual(["errors", "events"])
      expect(yield* names("show tables in shown like 'ev%';")).toEqual(["events"])
      expect(yield* names("SHOW TABLES FROM shown NOT LIKE 'ev%' LIMIT 5")).toEqual(["errors"])

      const databases = yield* names("SHOW DATABASES")
      expect(databases).toEqual(expect.arrayContaining(["default", "shown"]))
      expect(databases.filter((name) => name.startsWith("sluice_"))).toEqual([])
      expect(yield* names("SHOW DATABASES LIKE 'sh%'")).toEqual(["shown"])
    })
  )
})
