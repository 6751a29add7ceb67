/**
 * The DDL text of one server and of a ClickHouse cluster, written out by hand. The test
 * server refuses `ON CLUSTER`, so these texts are what is checked of the cluster mode.
 */
import { describe, expect, it } from "@effect/vitest"
import * as TableDdl from "../../src/engine/TableDdl.js"

const single = TableDdl.SINGLE_SERVER
const cluster: TableDdl.Topology = { clickhouseCluster: "lake" }

const events: TableDdl.TableDefinition = {
  database: "db",
  table: "t",
  columns: "x UInt64, y String",
  indexes: "INDEX iy y TYPE bloom_filter(0.01) GRANULARITY 1",
  constraints: "CONSTRAINT small CHECK x < 100",
  engine: "MergeTree",
  partitionBy: "toDate(x)",
  orderBy: "(x)",
  ttl: "toDate(x) + INTERVAL 1 DAY",
  settings: "index_granularity = 1024",
  comment: "it's t"
}

describe("TableDdl on one server", () => {
  it("creates the table as written, every clause in its place", () => {
    expect(TableDdl.createTable(single, events)).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`t` (x UInt64, y String, " +
        "INDEX iy y TYPE bloom_filter(0.01) GRANULARITY 1, CONSTRAINT small CHECK x < 100) " +
        "ENGINE = MergeTree PARTITION BY toDate(x) ORDER BY (x) " +
        "TTL toDate(x) + INTERVAL 1 DAY SETTINGS index_granularity = 1024 COMMENT 'it\\'s t'"
    ])
  })

  it("keeps an engine's parameters", () => {
    expect(
      TableDdl.createTable(single, {
        database: "db",
        table: "m",
        columns: "k String, updated DateTime",
        engine: "ReplacingMergeTree",
        parameters: "updated",
        orderBy: "k"
      })
    ).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`m` (k String, updated DateTime) " +
        "ENGINE = ReplacingMergeTree(updated) ORDER BY k"
    ])
  })

  it("drops, alters, deletes and makes databases without ON CLUSTER", () => {
    expect(TableDdl.dropTable(single, "db", "t")).toEqual(["DROP TABLE IF EXISTS `db`.`t` SYNC"])
    expect(TableDdl.dropTable(single, "db", "t", false)).toEqual(["DROP TABLE IF EXISTS `db`.`t`"])
    expect(TableDdl.alterColumns(single, "db", "t", "ADD COLUMN z UInt8")).toEqual([
      "ALTER TABLE `db`.`t` ADD COLUMN z UInt8"
    ])
    expect(TableDdl.deleteRows(single, "db", "t", "x = 1")).toBe("DELETE FROM `db`.`t` WHERE x = 1")
    expect(TableDdl.createDatabase(single, "db")).toBe("CREATE DATABASE IF NOT EXISTS `db`")
    expect(TableDdl.dropDatabase(single, "db")).toBe("DROP DATABASE IF EXISTS `db` SYNC")
    expect(TableDdl.createView(single, "db", "v", "SELECT 1", "c")).toBe(
      "CREATE VIEW IF NOT EXISTS `db`.`v` AS SELECT 1 COMMENT 'c'"
    )
    expect(TableDdl.topologySettings(single)).toEqual({})
  })
})

describe("TableDdl on a ClickHouse cluster", () => {
  it("holds a MergeTree table's data in a replicated table under a Distributed one", () => {
    expect(TableDdl.createTable(cluster, events)).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`__local_t` ON CLUSTER `lake` (x UInt64, y String, " +
        "INDEX iy y TYPE bloom_filter(0.01) GRANULARITY 1) " +
        "ENGINE = ReplicatedMergeTree PARTITION BY toDate(x) ORDER BY (x) " +
        "TTL toDate(x) + INTERVAL 1 DAY SETTINGS index_granularity = 1024 COMMENT 'it\\'s t'",
      "CREATE TABLE IF NOT EXISTS `db`.`t` ON CLUSTER `lake` (x UInt64, y String, " +
        "CONSTRAINT small CHECK x < 100) " +
        "ENGINE = Distributed('lake', 'db', '__local_t', rand()) COMMENT 'it\\'s t'"
    ])
  })

  it("writes the replica path and name before an engine's parameters, and shards by the key given", () => {
    expect(
      TableDdl.createTable(cluster, {
        database: "db",
        table: "m",
        columns: "k String, updated DateTime",
        engine: "ReplacingMergeTree",
        parameters: "updated",
        orderBy: "k",
        shardBy: "cityHash64(k)"
      })
    ).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`__local_m` ON CLUSTER `lake` (k String, updated DateTime) " +
        "ENGINE = ReplicatedReplacingMergeTree('/clickhouse/tables/{uuid}/{shard}', '{replica}', updated) " +
        "ORDER BY k",
      "CREATE TABLE IF NOT EXISTS `db`.`m` ON CLUSTER `lake` (k String, updated DateTime) " +
        "ENGINE = Distributed('lake', 'db', '__local_m', cityHash64(k))"
    ])
    expect(
      TableDdl.createTable(cluster, {
        database: "db",
        table: "a",
        columns: "k String",
        engine: "AggregatingMergeTree",
        orderBy: "k"
      })[0]
    ).toBe(
      "CREATE TABLE IF NOT EXISTS `db`.`__local_a` ON CLUSTER `lake` (k String) " +
        "ENGINE = ReplicatedAggregatingMergeTree ORDER BY k"
    )
  })

  it("makes a table of another engine once per node", () => {
    expect(
      TableDdl.createTable(cluster, {
        database: "db",
        table: "j",
        columns: "k String, v UInt8",
        engine: "Join",
        parameters: "ANY, LEFT, k"
      })
    ).toEqual([
      "CREATE TABLE IF NOT EXISTS `db`.`j` ON CLUSTER `lake` (k String, v UInt8) " +
        "ENGINE = Join(ANY, LEFT, k)"
    ])
  })

  it("drops both tables, alters columns of both, deletes from the data", () => {
    expect(TableDdl.dropTable(cluster, "db", "t")).toEqual([
      "DROP TABLE IF EXISTS `db`.`t` ON CLUSTER `lake` SYNC",
      "DROP TABLE IF EXISTS `db`.`__local_t` ON CLUSTER `lake` SYNC"
    ])
    expect(TableDdl.alterColumns(cluster, "db", "t", "ADD COLUMN z UInt8")).toEqual([
      "ALTER TABLE `db`.`__local_t` ON CLUSTER `lake` ADD COLUMN z UInt8",
      "ALTER TABLE `db`.`t` ON CLUSTER `lake` ADD COLUMN z UInt8"
    ])
    expect(TableDdl.deleteRows(cluster, "db", "t", "x = 1")).toBe(
      "DELETE FROM `db`.`__local_t` ON CLUSTER `lake` WHERE x = 1"
    )
  })

  it("makes databases and views on every node, and waits for inserts to reach their shards", () => {
    expect(TableDdl.createDatabase(cluster, "db")).toBe(
      "CREATE DATABASE IF NOT EXISTS `db` ON CLUSTER `lake`"
    )
    expect(TableDdl.dropDatabase(cluster, "db")).toBe(
      "DROP DATABASE IF EXISTS `db` ON CLUSTER `lake` SYNC"
    )
    expect(TableDdl.createView(cluster, "db", "v", "SELECT 1", "c")).toBe(
      "CREATE VIEW IF NOT EXISTS `db`.`v` ON CLUSTER `lake` AS SELECT 1 COMMENT 'c'"
    )
    expect(TableDdl.topologySettings(cluster)).toEqual({ distributed_foreground_insert: 1 })
  })
})
