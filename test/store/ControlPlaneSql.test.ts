import { SqlClient } from "@effect/sql"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as ControlPlaneSql from "../../src/store/ControlPlaneSql.js"
import * as Migrations from "../../src/store/Migrations.js"
import { databaseFor, externalControlPlane } from "../support/controlPlane.js"

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-store-sql-"))
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }))

// The same contract for both control planes: the `external` project runs this file on a
// real PostgreSQL, one database standing for the data directory.
const controlPlane = externalControlPlane
  ? Layer.unwrapEffect(
      Effect.map(databaseFor(dataDir), (url) =>
        ControlPlaneSql.external({ url: Redacted.make(url) })
      )
    )
  : ControlPlaneSql.embedded({ dataDir })

const tables = [
  "organizations",
  "users",
  "memberships",
  "clusters",
  "databases",
  "api_keys",
  "apps",
  "saved_searches",
  "service_state"
]

const migrationRows = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    sql<{
      migration_id: number
      name: string
      created_at: Date
    }>`SELECT migration_id, name, created_at FROM effect_sql_migrations ORDER BY migration_id`
)

describe(`ControlPlaneSql.${externalControlPlane ? "external" : "embedded"}`, () => {
  it.scopedLive("creates every control-plane table at start", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ table_name: string }>`
        SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`
      expect(rows.map((row) => row.table_name)).toEqual(expect.arrayContaining(tables))
      // Every registered migration ran once, in order.
      const registered = Object.keys(Migrations.migrations).map((key) => key.replace(/^\d+_/, ""))
      expect((yield* migrationRows).map((row) => row.name)).toEqual(registered)
    }).pipe(Effect.provide(controlPlane))
  )

  it.scopedLive("keeps rows across a restart and does not re-run migrations", () =>
    Effect.gen(function* () {
      const first = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO organizations (name) VALUES ('persisted')`
        return yield* migrationRows
      }).pipe(Effect.provide(controlPlane))

      const [organizations, second, rerun] = yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const organizations = yield* sql<{ name: string }>`
          SELECT name FROM organizations WHERE name = 'persisted'`
        return [organizations, yield* migrationRows, yield* Migrations.run] as const
      }).pipe(Effect.provide(controlPlane))

      expect(organizations).toEqual([{ name: "persisted" }])
      expect(second).toEqual(first)
      expect(rerun).toEqual([])
    })
  )

  it.scopedLive("serves concurrent queries and a transaction through its one connection", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const insert = sql.withTransaction(
        Effect.zipRight(
          sql`INSERT INTO service_state (key, value) VALUES ('concurrent', '1'::jsonb)`,
          sql`SELECT pg_sleep(0.05)`
        )
      )
      const selects = Array.from({ length: 20 }, (_, i) =>
        Effect.map(sql<{ n: number }>`SELECT ${i}::int AS n`, (rows) => rows[0]?.n)
      )
      const [, numbers] = yield* Effect.all(
        [insert, Effect.all(selects, { concurrency: "unbounded" })],
        {
          concurrency: "unbounded"
        }
      )
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i))
      const stored = yield* sql<{
        value: number
      }>`SELECT value FROM service_state WHERE key = 'concurrent'`
      expect(stored).toEqual([{ value: 1 }])
    }).pipe(Effect.provide(controlPlane))
  )

  it.scopedLive("enforces the schema's rules", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const refused = (statement: Effect.Effect<unknown, unknown>) =>
        Effect.map(Effect.either(statement), (result) => result._tag === "Left")

      expect(yield* refused(sql`INSERT INTO users (email) VALUES ('Upper@Example.com')`)).toBe(true)
      const [org] = yield* sql<{ id: string }>`
        INSERT INTO organizations (name) VALUES ('rules') RETURNING id`
      const cluster = (name: string) => sql`
        INSERT INTO clusters (organization_id, name, cpu_cores, memory_gib, min_cpu_cores,
          min_memory_gib, max_cpu_cores, max_memory_gib)
        VALUES (${org?.id ?? ""}, ${name}, 1, 4, 1, 4, 1, 4)`
      yield* cluster("default")
      expect(yield* refused(cluster("default"))).toBe(true)
      yield* sql`UPDATE clusters SET deleted_at = now() WHERE name = 'default'`
      expect(yield* refused(cluster("default"))).toBe(false)
      expect(yield* refused(sql`UPDATE clusters SET phase = 'sleeping'`)).toBe(true)
    }).pipe(Effect.provide(controlPlane))
  )
})
