import { PGlite } from "@electric-sql/pglite"
import { SqlClient } from "@effect/sql"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as ControlPlaneSql from "../../src/store/ControlPlaneSql.js"
import * as ControlPlaneTemplate from "../../src/store/ControlPlaneTemplate.js"
import * as EmbeddedPostgres from "../../src/store/EmbeddedPostgres.js"
import * as Migrations from "../../src/store/Migrations.js"
import { listeningTcpSocketsOfThisProcess, startCrashingControlPlane } from "./helpers.js"

const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-store-embedded-"))
const dataDir = path.join(root, "data")
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const mode = (file: string) => fs.statSync(file).mode & 0o777

describe("EmbeddedPostgres", () => {
  it.scopedLive("survives a crash that leaves its lock and socket behind", () =>
    Effect.gen(function* () {
      const crashing = yield* startCrashingControlPlane(dataDir)
      const refused = yield* Effect.flip(Effect.scoped(EmbeddedPostgres.open({ dataDir })))
      expect(refused._tag).toBe("DataDirInUse")
      expect(refused.pid).toBe(crashing.pid)

      yield* crashing.kill
      expect(fs.existsSync(path.join(dataDir, "control-plane.lock"))).toBe(true)
      expect(fs.statSync(path.join(dataDir, "run", ".s.PGSQL.5432")).isSocket()).toBe(true)

      const rows = yield* Effect.flatMap(
        SqlClient.SqlClient,
        (sql) => sql`SELECT value FROM service_state WHERE key = 'before_crash'`
      ).pipe(Effect.provide(ControlPlaneSql.embedded({ dataDir })))
      expect(rows).toEqual([{ value: true }])
    })
  )

  it.scopedLive("listens only on a Unix socket in a 0700 directory", () =>
    Effect.gen(function* () {
      const server = yield* EmbeddedPostgres.open({ dataDir })
      expect(server.socketDirectory).toBe(path.join(dataDir, "run"))
      expect(mode(server.socketDirectory)).toBe(0o700)
      expect(fs.statSync(server.socketPath).isSocket()).toBe(true)
      expect(listeningTcpSocketsOfThisProcess()).toEqual([])
    })
  )

  it.scopedLive("refuses a second open while the first is live, with a clear message", () =>
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const refused = yield* Effect.flip(Effect.scoped(EmbeddedPostgres.open({ dataDir })))
      expect(refused).toBeInstanceOf(EmbeddedPostgres.DataDirInUse)
      expect(refused.message).toContain(`data directory ${dataDir} is in use by process`)
      expect(refused.pid).toBe(process.pid)
      expect(yield* sql`SELECT 1 AS still_serving`).toEqual([{ still_serving: 1 }])
    }).pipe(Effect.provide(ControlPlaneSql.embedded({ dataDir })))
  )

  it.scopedLive("replaces a stale file at the socket path", () =>
    Effect.gen(function* () {
      const socketPath = path.join(dataDir, "run", ".s.PGSQL.5432")
      fs.writeFileSync(socketPath, "left over")
      fs.chmodSync(path.join(dataDir, "run"), 0o755)
      const server = yield* EmbeddedPostgres.open({ dataDir })
      expect(fs.statSync(server.socketPath).isSocket()).toBe(true)
      expect(mode(server.socketDirectory)).toBe(0o700)
    })
  )

  it.scopedLive("uses a private temp dir when the data dir path is too long for a socket", () =>
    Effect.gen(function* () {
      const longDataDir = path.join(root, "d".repeat(120))
      fs.symlinkSync(dataDir, longDataDir)
      const socketDirectory = yield* Effect.scoped(
        Effect.gen(function* () {
          const server = yield* EmbeddedPostgres.open({ dataDir: longDataDir })
          expect(server.socketDirectory.startsWith(os.tmpdir())).toBe(true)
          expect(mode(server.socketDirectory)).toBe(0o700)
          expect(fs.statSync(server.socketPath).isSocket()).toBe(true)
          return server.socketDirectory
        })
      )
      expect(fs.existsSync(socketDirectory)).toBe(false)
    })
  )

  it.scopedLive("starts a new data dir from the install's template, with small buffers", () =>
    Effect.gen(function* () {
      const fresh = path.join(root, "fresh")
      const { databases, settings } = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all({
          databases: sql<{ datname: string }>`SELECT datname FROM pg_database ORDER BY datname`,
          settings: sql<{ name: string; setting: string; unit: string }>`
            SELECT name, setting, unit FROM pg_settings
            WHERE name IN ('shared_buffers', 'wal_buffers') ORDER BY name`
        })
      ).pipe(Effect.provide(ControlPlaneSql.embedded({ dataDir: fresh })))
      // The one database PGlite opens; initdb's two templates are not copied along.
      expect(databases).toEqual([{ datname: "postgres" }])
      // 8 kB pages: 16 MB and 1 MB, where PGlite's own defaults are 128 MB and 4 MB.
      expect(settings).toEqual([
        { name: "shared_buffers", setting: "2048", unit: "8kB" },
        { name: "wal_buffers", setting: "128", unit: "8kB" }
      ])
      const template = ControlPlaneTemplate.templateDirectory()
      expect(fs.readFileSync(path.join(template, "PG_VERSION"), "utf8")).toBe(
        fs.readFileSync(path.join(fresh, "control-plane", "PG_VERSION"), "utf8")
      )
      // The schema comes with the copy: what the template recorded as applied is every
      // migration, so a first start's migrator has nothing to run.
      const seeded = path.join(root, "seeded", "control-plane")
      yield* ControlPlaneTemplate.seed(seeded)
      const applied = yield* Effect.promise(async () => {
        const db = await PGlite.create({ dataDir: seeded })
        try {
          const result = await db.query<{ migration_id: number; name: string }>(
            "SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id"
          )
          return result.rows.map(
            (row) => `${String(row.migration_id).padStart(4, "0")}_${row.name}`
          )
        } finally {
          await db.close()
        }
      })
      expect(applied).toEqual(Object.keys(Migrations.migrations))
      // Copied, so the template's files are the same as the new directory's were.
      const system = "global/pg_control"
      expect(fs.existsSync(path.join(template, system))).toBe(true)
      expect(mode(path.join(fresh, "control-plane", system)) & 0o077).toBe(0)
    })
  )

  it.scopedLive("starts a control plane in memory from the template's archive", () =>
    Effect.gen(function* () {
      const { databases, applied } = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all({
          databases: sql<{ datname: string }>`SELECT datname FROM pg_database ORDER BY datname`,
          applied: sql<{ n: number }>`SELECT count(*)::int AS n FROM effect_sql_migrations`
        })
      ).pipe(Effect.provide(ControlPlaneSql.inMemory))
      // initdb in memory would have made its two templates beside `postgres`.
      expect(databases).toEqual([{ datname: "postgres" }])
      expect(applied).toEqual([{ n: Object.keys(Migrations.migrations).length }])
    })
  )
})
