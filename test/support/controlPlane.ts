/**
 * The control plane under the black-box suites: PGlite, embedded, by default; in the
 * `external` vitest project, a real PostgreSQL at `SLUICE_TEST_POSTGRES_URL` (`.ci/run`
 * starts Debian's), one database per data directory so that a restart on the same
 * directory finds its control plane again, as it would with PGlite.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Redacted } from "effect"
import * as path from "node:path"

/** Set by the `external` project of test/vitest.config.ts. */
export const externalControlPlane = process.env.SLUICE_TEST_CONTROL_PLANE === "external"

/** Databases this suite creates carry this prefix; the global setup drops them. */
export const testDatabasePrefix = "sluice_test_"

export const adminUrl = (): string => {
  const url = process.env.SLUICE_TEST_POSTGRES_URL
  if (url === undefined || url === "") {
    throw new Error("SLUICE_TEST_POSTGRES_URL is not set: the external project needs a PostgreSQL")
  }
  return url
}

const databaseUrl = (name: string) => {
  const url = new URL(adminUrl())
  url.pathname = `/${name}`
  return url.toString()
}

/** A statement on the server's maintenance database, outside any transaction. */
export const onServer = <Row extends object = object>(statement: string) =>
  Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<Row>(statement)).pipe(
    Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl()), maxConnections: 1 })),
    Effect.orDie
  )

/** A fresh (or, for a data directory seen before, the same) database for `dataDir`. */
export const databaseFor = (dataDir: string) =>
  Effect.gen(function* () {
    const name = testDatabasePrefix + path.basename(dataDir).toLowerCase().replace(/\W/g, "_")
    const existing = yield* onServer(`SELECT 1 FROM pg_database WHERE datname = '${name}'`)
    if (existing.length === 0) yield* onServer(`CREATE DATABASE ${name}`)
    return databaseUrl(name)
  })

/** The `SLUICE_*` settings that put a server on `dataDir` onto this run's control plane. */
export const controlPlaneSettings = (dataDir: string) =>
  externalControlPlane
    ? Effect.map(databaseFor(dataDir), (url): Record<string, string> => ({
        SLUICE_DATABASE_URL: url
      }))
    : Effect.succeed<Record<string, string>>({})
