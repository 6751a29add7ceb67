/**
 * What each place that changes the engine's tables says, on one server and with a
 * ClickHouse cluster named (`SLUICE_CLICKHOUSE_CLUSTER=lake`). No engine here runs
 * `ON CLUSTER`, so the cluster's statements are checked as text, written out by hand;
 * the one-server texts are today's, which the engine suites run.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Option, Schema } from "effect"
import { Engines } from "../../domain/Engine.js"
import { ClusterId, DatabaseName } from "../../domain/Ids.js"
import { EngineSpec } from "../../domain/Provisioner.js"
import { DatabaseEvents } from "../../src/databases/DatabaseEvents.js"
import { EngineDatabases } from "../../src/databases/EngineDatabases.js"
import { moveInSql } from "../../src/ingest/StagedInsert.js"
import { createMetricsViewSql } from "../../src/otlp/MetricsView.js"
import * as OtlpTables from "../../src/otlp/OtlpTables.js"
import { createTables } from "../../src/prometheus/MetricsTables.js"
import { provisionStatements, removeStatements } from "../../src/provisioner/ServerNamespace.js"
import * as InsertTokens from "../../src/tables/InsertTokens.js"
import * as Layout from "../../src/tables/Layout.js"
import { mergePaths } from "../../src/tables/LeafPaths.js"
import { SchemalessTables } from "../../src/tables/SchemalessTables.js"
import { TableEvents } from "../../src/tables/TableEvents.js"
import { recordingEngine } from "../engine/recordingEngine.js"
import { partial } from "../support/doubles.js"

const single = {}
const cluster = { clickhouseCluster: "lake" }
const AT = "2026-01-01T00:00:00Z"

const PATH_LENGTH =
  "CONSTRAINT `__path_length` CHECK arrayAll(p -> length(p) <= 1024, JSONAllPaths(`__raw_data`))"
const KNOWN_PATHS =
  "CONSTRAINT `__known_paths` CHECK mapAll((p, t) -> isNotNull(joinGetOrNull('db.__paths_t', " +
  "'known', p, t)), JSONAllPathsWithTypes(`__raw_data`))"
const RAW = "`__raw` JSON EPHEMERAL, `__raw_data` JSON MATERIALIZED `__raw`"
const EVENT_COLUMNS =
  "`_time` DateTime64(3, 'UTC'), `_raw` String, `host` LowCardinality(String), " +
  "`source` LowCardinality(String), `sourcetype` LowCardinality(String), `index` LowCardinality(String)"
const COMMENT = `COMMENT '{"created_at":"${AT}"}'`

/** A statement's words, for texts whose line breaks and indents do not matter. */
const words = (sql: string) => sql.replace(/\s+/g, " ").trim()
const undated = (sql: string) => sql.replace(/"created_at":"[^"]*"/, `"created_at":"${AT}"`)

describe("a schemaless table's statements (Layout)", () => {
  it("on one server: the table, its known paths, its constraints, as before", () => {
    expect(Layout.createTableStatements(single, "db", "t", AT)).toEqual([
      `CREATE TABLE IF NOT EXISTS \`db\`.\`t\` (${RAW}, ${PATH_LENGTH}) ENGINE = MergeTree ORDER BY tuple() ${COMMENT}`,
      "CREATE TABLE IF NOT EXISTS `db`.`__paths_t` (path String, type String, known UInt8) " +
        "ENGINE = Join(ANY, LEFT, path, type)",
      "ALTER TABLE `db`.`t` ADD CONSTRAINT IF NOT EXISTS `__path_length` CHECK arrayAll(p -> length(p) <= 1024, " +
        "JSONAllPaths(`__raw_data`)), ADD CONSTRAINT IF NOT EXISTS `__known_paths` CHECK mapAll((p, t) -> " +
        "isNotNull(joinGetOrNull('db.__paths_t', 'known', p, t)), JSONAllPathsWithTypes(`__raw_data`))"
    ])
  })

  it("on a cluster: known paths on every node, the data replicated, a Distributed table with the constraints", () => {
    expect(Layout.createTableStatements(cluster, "db", "t", AT)).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`__paths_t` ON CLUSTER `lake` (path String, type String, known UInt8) " +
        "ENGINE = Join(ANY, LEFT, path, type)",
      `CREATE TABLE IF NOT EXISTS \`db\`.\`__local_t\` ON CLUSTER \`lake\` (${RAW}) ` +
        `ENGINE = ReplicatedMergeTree ORDER BY tuple() ${COMMENT}`,
      `CREATE TABLE IF NOT EXISTS \`db\`.\`t\` ON CLUSTER \`lake\` (${RAW}, ${PATH_LENGTH}, ${KNOWN_PATHS}) ` +
        "ENGINE = Distributed('lake', 'db', '__local_t', cityHash64(toString(`__raw_data`))) " +
        COMMENT
    ])
    expect(Layout.createTableStatements(cluster, "db", "t", AT, "events")[1]).toBe(
      `CREATE TABLE IF NOT EXISTS \`db\`.\`__local_t\` ON CLUSTER \`lake\` (${RAW}, ${EVENT_COLUMNS}) ` +
        `ENGINE = ReplicatedMergeTree ORDER BY \`_time\` ${COMMENT}`
    )
  })

  it("keeps a staging table a plain table of one node on a cluster too", () => {
    expect(
      Layout.createTableSql(
        "db",
        "__staging_1",
        "",
        "records",
        "max_bytes_to_merge_at_max_space_in_pool = 1"
      )
    ).toBe(
      `CREATE TABLE IF NOT EXISTS \`db\`.\`__staging_1\` (${RAW}, ${PATH_LENGTH}) ENGINE = MergeTree ` +
        `ORDER BY tuple() SETTINGS max_bytes_to_merge_at_max_space_in_pool = 1 COMMENT '{"created_at":""}'`
    )
  })

  it("names the stored JSON column in inserts on a cluster", () => {
    expect(Layout.insertShape("records", single)).toEqual({
      format: "JSONAsObject",
      columns: ["__raw"],
      settings: {}
    })
    expect(Layout.insertShape("records", cluster)).toEqual({
      format: "JSONAsObject",
      columns: ["__raw_data"],
      settings: { insert_allow_materialized_columns: 1 }
    })
    expect(Layout.insertShape("events", cluster).columns).toEqual([
      "_time",
      "_raw",
      "host",
      "source",
      "sourcetype",
      "index",
      "__raw_data"
    ])
  })
})

const tablesLayer = SchemalessTables.DefaultWithoutDependencies.pipe(
  Layer.provide(partial(TableEvents, { publish: () => Effect.void }))
)

describe("SchemalessTables and LeafPaths on a cluster", () => {
  it.effect("create and drop run ON CLUSTER, dropping the data with the table", () =>
    Effect.gen(function* () {
      const tables = yield* SchemalessTables
      const { engine, statements } = recordingEngine("lake")
      yield* tables.create(engine, "db", "t")
      expect(statements.map(undated)).toEqual(Layout.createTableStatements(cluster, "db", "t", AT))
      statements.length = 0
      yield* tables.drop(engine, "db", "t")
      expect(statements).toEqual([
        "DROP TABLE IF EXISTS `db`.`t` ON CLUSTER `lake` SYNC",
        "DROP TABLE IF EXISTS `db`.`__local_t` ON CLUSTER `lake` SYNC",
        "DROP TABLE IF EXISTS `db`.`__paths_t` ON CLUSTER `lake` SYNC",
        "DROP TABLE IF EXISTS `db`.`__local___paths_t` ON CLUSTER `lake` SYNC"
      ])
    }).pipe(Effect.provide(tablesLayer))
  )

  it.effect("a new leaf path's column is added to the data and the Distributed table", () =>
    Effect.gen(function* () {
      const { engine, statements } = recordingEngine("lake", (sql) =>
        sql.startsWith("DESCRIBE") ? '{"name":"c0","type":"Nullable(Int64)"}\n' : ""
      )
      yield* mergePaths(engine, "db", "t", { "a.b": ["Int64"] }, new Map())
      const added =
        "ADD COLUMN IF NOT EXISTS `a.b` Nullable(Int64) ALIAS `__raw_data`.`a`.`b`.:`Int64` " +
        `COMMENT '["Int64"]'`
      expect(statements).toEqual([
        `ALTER TABLE \`db\`.\`__local_t\` ON CLUSTER \`lake\` ${added}`,
        `ALTER TABLE \`db\`.\`t\` ON CLUSTER \`lake\` ${added}`
      ])
    })
  )
})

describe("insert tokens and the staged insert's last step on a cluster", () => {
  const TOKEN_COLUMNS =
    "table String, token String, body_hash String, inserted UInt64, at DateTime DEFAULT now()"

  it.effect(
    "the token table is replicated and distributed; a dropped table's tokens are deleted from its data",
    () =>
      Effect.gen(function* () {
        const { engine, statements } = recordingEngine("lake")
        yield* InsertTokens.forget(engine, "db", "t")
        expect(statements).toEqual([
          `CREATE TABLE IF NOT EXISTS \`db\`.\`__local___sluice_insert_tokens\` ON CLUSTER \`lake\` (${TOKEN_COLUMNS}) ` +
            "ENGINE = ReplicatedMergeTree ORDER BY (table, token) TTL at + INTERVAL 1 DAY",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`__sluice_insert_tokens\` ON CLUSTER \`lake\` (${TOKEN_COLUMNS}) ` +
            "ENGINE = Distributed('lake', 'db', '__local___sluice_insert_tokens', rand())",
          "DELETE FROM `db`.`__local___sluice_insert_tokens` ON CLUSTER `lake` WHERE table = 't'"
        ])
        expect(InsertTokens.rememberBlocksSql(cluster, "db", "t")).toEqual([])
        expect(InsertTokens.rememberBlocksSql(single, "db", "t")).toEqual([
          "ALTER TABLE `db`.`t` MODIFY SETTING non_replicated_deduplication_window = 10000"
        ])
      })
  )

  it("attaches on one server; copies into the Distributed table on a cluster", () => {
    const token = Option.some({ token: "k", hash: "h" })
    const withToken =
      "insert_deduplication_token = 'h:k', deduplicate_insert_select = 'force_enable', " +
      "max_threads = 1, max_insert_threads = 1"
    expect(moveInSql(single, "db", "t", "__staging_1", "records", Option.none())).toBe(
      "ALTER TABLE `db`.`t` ATTACH PARTITION tuple() FROM `db`.`__staging_1`"
    )
    expect(moveInSql(single, "db", "t", "__staging_1", "records", token)).toBe(
      "INSERT INTO `db`.`t` (`__raw`) SELECT `__raw_data` FROM `db`.`__staging_1` " +
        `SETTINGS ${withToken}`
    )
    expect(moveInSql(cluster, "db", "t", "__staging_1", "records", Option.none())).toBe(
      "INSERT INTO `db`.`t` (`__raw_data`) SELECT `__raw_data` FROM `db`.`__staging_1` " +
        "SETTINGS deduplicate_insert = 'disable', insert_allow_materialized_columns = 1"
    )
    expect(moveInSql(cluster, "db", "t", "__staging_1", "events", token)).toBe(
      "INSERT INTO `db`.`t` (`_time`, `_raw`, `host`, `source`, `sourcetype`, `index`, `__raw_data`) " +
        "SELECT `_time`, `_raw`, `host`, `source`, `sourcetype`, `index`, `__raw_data` FROM `db`.`__staging_1` " +
        `SETTINGS ${withToken}, insert_allow_materialized_columns = 1`
    )
  })
})

describe("the apps' tables on a cluster", () => {
  it("OTLP: the replicated table keeps the indexes, the Distributed table has none", () => {
    const [local, distributed] = OtlpTables.createSql(
      cluster,
      "db",
      "otel_logs",
      OtlpTables.LOGS,
      AT
    )
    expect(words(local!)).toMatch(
      /^CREATE TABLE IF NOT EXISTS `db`\.`__local_otel_logs` ON CLUSTER `lake` \( Timestamp DateTime64\(9\) /
    )
    expect(words(local!)).toContain(
      "EventName String CODEC(ZSTD(1)), INDEX idx_trace_id TraceId TYPE bloom_filter(0.001) GRANULARITY 1, " +
        "INDEX idx_log_attr_key mapKeys(LogAttributes) TYPE bloom_filter(0.01) GRANULARITY 1) " +
        "ENGINE = ReplicatedMergeTree PARTITION BY toDate(TimestampTime) " +
        `ORDER BY (ServiceName, TimestampTime, Timestamp) ${COMMENT}`
    )
    expect(words(distributed!)).toMatch(
      /^CREATE TABLE IF NOT EXISTS `db`\.`otel_logs` ON CLUSTER `lake` \( Timestamp DateTime64\(9\) /
    )
    expect(words(distributed!)).toContain(
      "EventName String CODEC(ZSTD(1))) " +
        `ENGINE = Distributed('lake', 'db', '__local_otel_logs', rand()) ${COMMENT}`
    )
    expect(distributed).not.toContain("INDEX")
    expect(
      words(OtlpTables.createSql(single, "db", "otel_logs", OtlpTables.LOGS, AT)[0]!)
    ).toContain(
      "GRANULARITY 1) ENGINE = MergeTree PARTITION BY toDate(TimestampTime) " +
        `ORDER BY (ServiceName, TimestampTime, Timestamp) ${COMMENT}`
    )
  })

  it("OTLP: the metrics view is made on every node", () => {
    const view = createMetricsViewSql(cluster, "db", "metrics", AT)
    expect(view).toMatch(/^CREATE VIEW IF NOT EXISTS `db`\.`metrics` ON CLUSTER `lake` AS SELECT /)
    expect(view).toContain("FROM `db`.`metrics_summary`")
    expect(view.endsWith(` ${COMMENT}`)).toBe(true)
  })

  it.effect(
    "metrics-app: replicated Aggregating and Replacing tables, sharded by what they fold on",
    () =>
      Effect.gen(function* () {
        const { engine, statements } = recordingEngine("lake")
        yield* createTables(engine, "db")
        const series =
          "( id UInt64, metric_name LowCardinality(String), labels SimpleAggregateFunction(any, " +
          "Map(String, String)), min_time SimpleAggregateFunction(min, Int64), " +
          "max_time SimpleAggregateFunction(max, Int64) )"
        const samples =
          "( id UInt64, time_ms Int64 EPHEMERAL, bits UInt64 EPHEMERAL, timestamp DateTime64(3, 'UTC') " +
          "DEFAULT fromUnixTimestamp64Milli(time_ms, 'UTC') CODEC(DoubleDelta, ZSTD), value Float64 " +
          "DEFAULT reinterpretAsFloat64(bits) CODEC(Gorilla, ZSTD) )"
        const metadata =
          "( metric_family_name String, type LowCardinality(String), help String, unit String, " +
          "updated DateTime64(6, 'UTC') DEFAULT now64(6) )"
        expect(statements.map(words)).toEqual([
          `CREATE TABLE IF NOT EXISTS \`db\`.\`__local_prometheus_series\` ON CLUSTER \`lake\` ${series} ` +
            "ENGINE = ReplicatedAggregatingMergeTree ORDER BY (metric_name, id)",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`prometheus_series\` ON CLUSTER \`lake\` ${series} ` +
            "ENGINE = Distributed('lake', 'db', '__local_prometheus_series', id)",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`__local_prometheus_samples\` ON CLUSTER \`lake\` ${samples} ` +
            "ENGINE = ReplicatedReplacingMergeTree ORDER BY (id, timestamp)",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`prometheus_samples\` ON CLUSTER \`lake\` ${samples} ` +
            "ENGINE = Distributed('lake', 'db', '__local_prometheus_samples', id)",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`__local_prometheus_metadata\` ON CLUSTER \`lake\` ${metadata} ` +
            "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', updated) " +
            "ORDER BY metric_family_name",
          `CREATE TABLE IF NOT EXISTS \`db\`.\`prometheus_metadata\` ON CLUSTER \`lake\` ${metadata} ` +
            "ENGINE = Distributed('lake', 'db', '__local_prometheus_metadata', cityHash64(metric_family_name))"
        ])
      })
  )

  it.effect("metrics-app on one server: the three tables as before", () =>
    Effect.gen(function* () {
      const { engine, statements } = recordingEngine(undefined)
      yield* createTables(engine, "db")
      expect(statements.map(words)).toEqual([
        "CREATE TABLE IF NOT EXISTS `db`.`prometheus_series` ( id UInt64, metric_name LowCardinality(String), " +
          "labels SimpleAggregateFunction(any, Map(String, String)), min_time SimpleAggregateFunction(min, Int64), " +
          "max_time SimpleAggregateFunction(max, Int64) ) ENGINE = AggregatingMergeTree ORDER BY (metric_name, id)",
        "CREATE TABLE IF NOT EXISTS `db`.`prometheus_samples` ( id UInt64, time_ms Int64 EPHEMERAL, " +
          "bits UInt64 EPHEMERAL, timestamp DateTime64(3, 'UTC') DEFAULT fromUnixTimestamp64Milli(time_ms, 'UTC') " +
          "CODEC(DoubleDelta, ZSTD), value Float64 DEFAULT reinterpretAsFloat64(bits) CODEC(Gorilla, ZSTD) ) " +
          "ENGINE = ReplacingMergeTree ORDER BY (id, timestamp)",
        "CREATE TABLE IF NOT EXISTS `db`.`prometheus_metadata` ( metric_family_name String, " +
          "type LowCardinality(String), help String, unit String, updated DateTime64(6, 'UTC') DEFAULT now64(6) ) " +
          "ENGINE = ReplacingMergeTree(updated) ORDER BY metric_family_name"
      ])
    })
  )
})

describe("databases and namespaces on a cluster", () => {
  const clusterId = Schema.decodeSync(ClusterId)("0b6a4f7e-2d1c-4a8b-9e3f-5c7d9a1b2c3d")

  it.effect("a cluster's databases are made and dropped on every node", () => {
    const { engine, statements } = recordingEngine("lake")
    const layer = EngineDatabases.Default.pipe(
      Layer.provide(
        Layer.mergeAll(
          Layer.succeed(Engines, { forCluster: () => Effect.succeed(engine) }),
          partial(DatabaseEvents, { publish: () => Effect.void })
        )
      )
    )
    return Effect.gen(function* () {
      const databases = yield* EngineDatabases
      yield* databases.create({ clusterId }, "logs")
      yield* databases.drop({ clusterId }, Schema.decodeSync(DatabaseName)("logs"))
      expect(statements).toEqual([
        "CREATE DATABASE IF NOT EXISTS `logs` ON CLUSTER `lake`",
        "DROP DATABASE IF EXISTS `logs` ON CLUSTER `lake` SYNC"
      ])
    }).pipe(Effect.provide(layer))
  })

  it("a namespace's profile, user, grants and databases are made on every node", () => {
    const ns = "sluice_0b6a4f7e2d1c4a8b9e3f5c7d9a1b2c3d"
    const spec = new EngineSpec({ clusterId, cpuCores: 2, memoryBytes: 1024, replicas: 1 })
    const settings = "max_threads = 2, max_insert_threads = 2, max_memory_usage = 1024"
    expect(provisionStatements(spec, "pw", cluster)).toEqual([
      `CREATE SETTINGS PROFILE IF NOT EXISTS ${ns} ON CLUSTER \`lake\` SETTINGS ${settings}`,
      `ALTER SETTINGS PROFILE ${ns} ON CLUSTER \`lake\` SETTINGS ${settings}`,
      `CREATE USER IF NOT EXISTS ${ns} ON CLUSTER \`lake\` IDENTIFIED WITH sha256_password BY 'pw' ` +
        `DEFAULT DATABASE \`${ns}__default\` SETTINGS PROFILE ${ns}`,
      `ALTER USER ${ns} ON CLUSTER \`lake\` IDENTIFIED WITH sha256_password BY 'pw'`,
      "GRANT ON CLUSTER `lake` SELECT, INSERT, ALTER, CREATE DATABASE, CREATE TABLE, DROP DATABASE, " +
        `DROP TABLE, TRUNCATE, OPTIMIZE, SHOW ON \`${ns}__*\`.* TO ${ns}`,
      `CREATE DATABASE IF NOT EXISTS \`${ns}__default\` ON CLUSTER \`lake\``
    ])
    expect(removeStatements(clusterId, [`${ns}__default`], cluster)).toEqual([
      `DROP DATABASE IF EXISTS \`${ns}__default\` ON CLUSTER \`lake\` SYNC`,
      `DROP USER IF EXISTS ${ns} ON CLUSTER \`lake\``,
      `DROP SETTINGS PROFILE IF EXISTS ${ns} ON CLUSTER \`lake\``
    ])
  })
})
