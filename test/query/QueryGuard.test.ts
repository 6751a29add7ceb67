import { describe, expect, it } from "@effect/vitest"
import { forbiddenReference } from "../../src/query/QueryGuard.js"

describe("QueryGuard", () => {
  it("refuses system tables that show statements, however they are written", () => {
    for (const sql of [
      "SELECT * FROM system.processes",
      "SELECT * FROM `system`.`query_log`",
      'SELECT * FROM "system"."text_log"',
      "SELECT * FROM system . processes",
      "SELECT * FROM /* c */ system/* c */./* c */processes",
      "SELECT * FROM `sy\\x73tem`.processes",
      "SELECT * FROM merge('system', 'proc')",
      "SELECT * FROM MERGE ( 'system', 'proc' )",
      "SHOW PROCESSLIST",
      "SHOW TABLES FROM system",
      "SELECT * FROM clusterAllReplicas('default', system.processes)",
      "SELECT $$x$$, * FROM system.processes"
    ]) {
      expect(forbiddenReference(sql), sql).toBeDefined()
    }
  })

  it("lets harmless system tables, strings, comments and columns named system through", () => {
    for (const sql of [
      "SELECT * FROM system.one",
      "SELECT count() FROM system.numbers LIMIT 10",
      "SELECT 'system.processes' AS s",
      "SELECT $tag$ system.processes $tag$",
      "SELECT 1 -- system.processes",
      "SELECT 1 /* system.processes */",
      "SELECT system FROM events WHERE system = 'linux'",
      "SELECT merge FROM events"
    ]) {
      expect(forbiddenReference(sql), sql).toBeUndefined()
    }
  })
})
