/**
 * What of the cluster mode (`SLUICE_CLICKHOUSE_CLUSTER`) one server can run: the test
 * server refuses `ON CLUSTER` and has no Keeper for replicated tables, so the engine here
 * takes both off each statement sluice sends (`oneNode`) and runs the rest on a server
 * whose `remote_servers` cluster `lake` has two shards, both itself. The `Distributed`
 * tables, their sharding keys and constraints, the inserts that name `__raw_data`, the
 * staged body's copy and the column changes run for real; replication and DDL on other
 * nodes do not.
 */
import { createClient } from "@clickhouse/client"
import { describe, expect, it, layer } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Schema } from "effect"
import { CommandRequest, InsertRequest } from "../../domain/Engine.js"
import type { AnalyticalEngine } from "../../domain/Engine.js"
import * as ClickHouseEngine from "../../src/engine/ClickHouseEngine.js"
import * as TableDdl from "../../src/engine/TableDdl.js"
import { moveInSql } from "../../src/ingest/StagedInsert.js"
import * as OtlpTables from "../../src/otlp/OtlpTables.js"
import { createTables } from "../../src/prometheus/MetricsTables.js"
import * as EngineSql from "../../src/tables/EngineSql.js"
import * as Layout from "../../src/tables/Layout.js"
import { knownPaths, mergePaths, rememberPaths } from "../../src/tables/LeafPaths.js"
import { SchemalessTables } from "../../src/tables/SchemalessTables.js"
import { TableEvents } from "../../src/tables/TableEvents.js"
import { startClickHouseServerWith } from "../support/clickhouseServer.js"
import { partial } from "../support/doubles.js"

const twoShards = ({ tcpPort }: { readonly tcpPort: number }) => `<clickhouse>
  <remote_servers><lake>
    <shard><replica><host>127.0.0.1</host><port>${tcpPort}</port></replica></shard>
    <shard><replica><host>127.0.0.1</host><port>${tcpPort}</port></replica></shard>
  </lake></remote_servers>
</clickhouse>`

/** The statement as one node without Keeper takes it. */
const oneNode = (sql: string) =>
  sql
    .replaceAll(" ON CLUSTER `lake`", "")
    .replace(
      /Replicated(\w*MergeTree)\('\/clickhouse\/tables\/\{uuid\}\/\{shard\}', '\{replica\}', /,
      "$1("
    )
    .replace(/Replicated(\w*MergeTree)/, "$1")

class ClusterEngine extends Context.Tag("test/ClusterEngine")<ClusterEngine, AnalyticalEngine>() {}

const engineLayer = Layer.scoped(
  ClusterEngine,
  Effect.gen(function* () {
    const server = yield* startClickHouseServerWith({ config: twoShards })
    const client = createClient({ url: server.url })
    const engine = yield* ClickHouseEngine.make(client, {
      defaultSettings: TableDdl.topologySettings({ clickhouseCluster: "lake" })
    })
    const sent: AnalyticalEngine = {
      ...engine,
      clickhouseCluster: "lake",
      command: (request) =>
        engine.command(new CommandRequest({ ...request, sql: oneNode(request.sql) }))
    }
    yield* EngineSql.command(sent, TableDdl.createDatabase(sent, "c"))
    return sent
  })
).pipe(Layer.orDie)

const tablesLayer = SchemalessTables.DefaultWithoutDependencies.pipe(
  Layer.provide(partial(TableEvents, { publish: () => Effect.void }))
)

const Count = Schema.Struct({ n: Schema.NumberFromString })
const Value = Schema.Struct({ v: Schema.NumberFromString })
const Name = Schema.Struct({ name: Schema.String })

const count = (engine: AnalyticalEngine, table: string) =>
  Effect.map(
    EngineSql.rows(engine, Count, `SELECT toString(count()) AS n FROM c.${table}`),
    (rows) => rows[0]!.n
  )

const insertRecords = (engine: AnalyticalEngine, table: string, text: string, staging = false) => {
  const shape = Layout.insertShape("records", staging ? TableDdl.SINGLE_SERVER : engine)
  return engine.insertWhole(
    new InsertRequest({
      database: "c",
      table,
      format: shape.format,
      columns: shape.columns,
      queryId: crypto.randomUUID(),
      settings: shape.settings
    }),
    new TextEncoder().encode(text)
  )
}

describe("a cluster's tables on a server of two shards (ON CLUSTER and replication taken off)", () => {
  layer(Layer.merge(engineLayer, tablesLayer), { excludeTestServices: true, timeout: 180_000 })(
    (it) => {
      it.effect(
        "a schemaless table: a new path refused where it arrives, columns on both tables, rows over the shards, dropped whole",
        () =>
          Effect.gen(function* () {
            const engine = yield* ClusterEngine
            const tables = yield* SchemalessTables
            yield* tables.create(engine, "c", "t")

            // The known-paths constraint on the Distributed table refuses a path without a column.
            const refused = yield* Effect.exit(insertRecords(engine, "t", '{"a":1}\n'))
            expect(Exit.isFailure(refused) && String(Exit.causeOption(refused))).toContain(
              "__known_paths"
            )

            const known = yield* knownPaths(engine, "c", "t")
            yield* mergePaths(engine, "c", "t", { a: ["Int64"] }, known)
            yield* rememberPaths(engine, "c", "t", known)
            yield* insertRecords(engine, "t", '{"a":1}\n')

            // A staged body: a plain table of this node, copied into the Distributed table.
            yield* EngineSql.command(
              engine,
              Layout.createTableSql("c", "__staging_1", "", "records", "index_granularity = 8192")
            )
            yield* insertRecords(engine, "__staging_1", '{"a":2}\n{"a":3}\n{"a":4}\n', true)
            yield* EngineSql.command(
              engine,
              moveInSql(engine, "c", "t", "__staging_1", "records", Option.none())
            )

            // Both shards are this server's one data table: each row is in it once, and
            // the Distributed table reads it once per shard.
            expect(yield* count(engine, "__local_t")).toBe(4)
            expect(yield* count(engine, "t")).toBe(8)
            const values = yield* EngineSql.rows(
              engine,
              Value,
              "SELECT DISTINCT toString(a) AS v FROM c.t ORDER BY v"
            )
            expect(values.map((row) => row.v)).toEqual([1, 2, 3, 4])

            yield* tables.drop(engine, "c", "t")
            const left = yield* EngineSql.rows(
              engine,
              Name,
              "SELECT name FROM system.tables WHERE database = 'c' AND name LIKE '%t' ORDER BY name"
            )
            expect(left.map((row) => row.name)).not.toContain("t")
            expect(left.map((row) => row.name)).not.toContain("__local_t")
          })
      )

      it.effect("the apps' tables: OTLP with its indexes, the metrics-app's folding tables", () =>
        Effect.gen(function* () {
          const engine = yield* ClusterEngine
          yield* OtlpTables.create(engine, "c", [
            { table: "otel_traces", shape: OtlpTables.TRACES }
          ])
          yield* createTables(engine, "c")
          yield* engine.insertWhole(
            new InsertRequest({
              database: "c",
              table: "prometheus_metadata",
              format: "JSONEachRow",
              queryId: crypto.randomUUID()
            }),
            new TextEncoder().encode(
              '{"metric_family_name":"up","type":"gauge","help":"","unit":""}\n'
            )
          )
          expect(yield* count(engine, "__local_prometheus_metadata")).toBe(1)
          expect(yield* count(engine, "otel_traces")).toBe(0)
        })
      )
    }
  )
})

// A name the statements above could not have: the test would pass by reading nothing.
it("takes ON CLUSTER and replication off the statements it is given", () => {
  expect(
    oneNode(
      "CREATE TABLE IF NOT EXISTS `c`.`__local_m` ON CLUSTER `lake` (k String) ENGINE = " +
        "ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', updated) ORDER BY k"
    )
  ).toBe(
    "CREATE TABLE IF NOT EXISTS `c`.`__local_m` (k String) ENGINE = ReplacingMergeTree(updated) ORDER BY k"
  )
})
