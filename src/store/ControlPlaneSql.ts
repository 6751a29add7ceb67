/**
 * The control plane's `SqlClient` (and `PgClient`): the embedded PGlite or an external
 * PostgreSQL, migrated before the layer is ready. Column names stay
 * snake_case, as on the wire.
 */
import type { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, type Redacted } from "effect"
import * as EmbeddedPostgres from "./EmbeddedPostgres.js"
import * as Migrations from "./Migrations.js"

export type ControlPlaneSql = PgClient.PgClient | SqlClient.SqlClient

const migrated = <E, R>(client: Layer.Layer<ControlPlaneSql, E, R>) =>
  Migrations.layer.pipe(Layer.provideMerge(client))

const embeddedClient = Layer.unwrapEffect(
  Effect.map(EmbeddedPostgres.EmbeddedPostgres, (server) =>
    PgClient.layer({
      host: server.socketDirectory,
      port: server.port,
      database: "postgres",
      username: "postgres",
      // The socket server accepts one connection (it multiplexes PGlite's single
      // session); raise both together or not at all. And keep that one open: a pool
      // that closes it when idle (pg's default, after 10 s) races its reconnect
      // against the server noticing the close, and the new connection is refused.
      maxConnections: 1,
      minConnections: 1
    })
  )
).pipe(Layer.orDie)

/**
 * PGlite under `<dataDir>/control-plane`. Fails with `DataDirInUse` when another live
 * process serves that data dir; any other failure is a defect.
 */
export const embedded = (
  options: EmbeddedPostgres.EmbeddedPostgresOptions
): Layer.Layer<ControlPlaneSql, EmbeddedPostgres.DataDirInUse> =>
  migrated(embeddedClient).pipe(Layer.provide(EmbeddedPostgres.layer(options)))

/** PGlite in memory: a control plane that lives as long as the layer. */
export const inMemory: Layer.Layer<ControlPlaneSql> = migrated(embeddedClient).pipe(
  Layer.provide(EmbeddedPostgres.inMemory)
)

/** A PostgreSQL server at `url` (`SLUICE_DATABASE_URL`). */
export const external = (options: {
  readonly url: Redacted.Redacted<string>
}): Layer.Layer<ControlPlaneSql> => migrated(PgClient.layer({ url: options.url }).pipe(Layer.orDie))
