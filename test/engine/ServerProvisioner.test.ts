/**
 * The ClickHouse-server provisioner. No ClickHouse server with access control can run
 * here (NOTES.md), so: the namespace statements it generates are checked as text, its
 * data path (namespaced databases through the same `@clickhouse/client` API) runs
 * against chDB, and an unreachable server is reported as such.
 */
import { createClient } from "@clickhouse/client"
import { describe, expect, it } from "@effect/vitest"
import { createChdbConnection } from "chdb/connection"
import { Effect, Exit } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { CommandRequest, InsertRequest } from "../../domain/Engine.js"
import { EngineSpec } from "../../domain/Provisioner.js"
import { engineDatabase, quotedEngineDatabase } from "../../src/databases/EngineDatabase.js"
import { provisionStatements, removeStatements } from "../../src/provisioner/ServerNamespace.js"
import * as ServerProvisioner from "../../src/provisioner/ServerProvisioner.js"
import { Stream } from "effect"
import { bytes, newClusterId, queryText } from "./helpers.js"

const spec = (cores = 2, gib = 8) =>
  new EngineSpec({
    clusterId: newClusterId(),
    cpuCores: cores,
    memoryBytes: gib * 1024 ** 3,
    replicas: 1
  })

describe("ServerNamespace", () => {
  it("gives each cluster a user, a profile from its size and grants on its own databases", () => {
    const s = spec(4, 16)
    const ns = `sluice_${s.clusterId.replaceAll("-", "")}`
    const statements = provisionStatements(s, "pa'ss")
    expect(statements).toContain(
      `CREATE SETTINGS PROFILE IF NOT EXISTS ${ns} SETTINGS max_threads = 4, max_insert_threads = 4, max_memory_usage = ${16 * 1024 ** 3}`
    )
    expect(statements.find((x) => x.startsWith("CREATE USER"))).toBe(
      `CREATE USER IF NOT EXISTS ${ns} IDENTIFIED WITH sha256_password BY 'pa\\'ss' DEFAULT DATABASE \`${ns}__default\` SETTINGS PROFILE ${ns}`
    )
    const grant = statements.find((x) => x.startsWith("GRANT"))!
    expect(grant).toMatch(new RegExp(`ON \`${ns}__\\*\`\\.\\* TO ${ns}$`))
    expect(grant).not.toMatch(/ON \*\.\*|system|ACCESS MANAGEMENT|KILL QUERY|SYSTEM/)
    expect(removeStatements(s.clusterId, [`${ns}__default`])).toEqual([
      `DROP DATABASE IF EXISTS \`${ns}__default\` SYNC`,
      `DROP USER IF EXISTS ${ns}`,
      `DROP SETTINGS PROFILE IF EXISTS ${ns}`
    ])
  })
})

describe("ServerProvisioner on chDB (no access control)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-server-prov-"))
  const provisioner = ServerProvisioner.make({
    accessControl: false,
    // Seam cast as in ChdbEngine: chDB types its connection against another client copy.
    client: () => createClient({ connection: createChdbConnection({ path: dir }) as never })
  })

  it.scopedLive(
    "keeps each cluster's databases in its own namespace, and drops them on destroy",
    () =>
      Effect.gen(function* () {
        const p = yield* provisioner
        const [a, b] = [spec(), spec()]
        yield* p.start(a)
        yield* p.start(b)
        const ea = yield* p.engine(a.clusterId)
        const eb = yield* p.engine(b.clusterId)
        expect(engineDatabase(ea, "logs")).toBe(`sluice_${a.clusterId.replaceAll("-", "")}__logs`)

        for (const e of [ea, eb]) {
          yield* e.command(
            new CommandRequest({
              sql: `CREATE DATABASE IF NOT EXISTS ${quotedEngineDatabase(e, "logs")}`
            })
          )
          yield* e.command(
            new CommandRequest({
              sql: `CREATE TABLE ${quotedEngineDatabase(e, "logs")}.events (v String) ENGINE = MergeTree ORDER BY v`
            })
          )
        }
        yield* ea.insert(
          new InsertRequest({
            database: engineDatabase(ea, "logs"),
            table: "events",
            format: "JSONEachRow",
            queryId: crypto.randomUUID()
          }),
          Stream.make(bytes('{"v":"only in a"}\n'))
        )
        const inA = yield* queryText(
          ea,
          `SELECT v FROM ${quotedEngineDatabase(ea, "logs")}.events`,
          "TSV"
        )
        const inB = yield* queryText(
          eb,
          `SELECT count() FROM ${quotedEngineDatabase(eb, "logs")}.events`,
          "TSV"
        )
        expect([inA.trim(), inB.trim()]).toEqual(["only in a", "0"])

        yield* p.destroy(a.clusterId)
        expect(Exit.isFailure(yield* Effect.exit(p.engine(a.clusterId)))).toBe(true)
        const left = yield* queryText(
          eb,
          `SELECT name FROM system.databases WHERE name LIKE 'sluice_%' ORDER BY name`,
          "TSV"
        )
        expect(left.trim().split("\n")).toEqual([
          `sluice_${b.clusterId.replaceAll("-", "")}__default`,
          `sluice_${b.clusterId.replaceAll("-", "")}__logs`
        ])
      })
  )

  it.live("closes every engine it opened when it ends, those still running included", () =>
    Effect.gen(function* () {
      // Each client made, and whether it was closed.
      const made: Array<{ closed: boolean }> = []
      const client = () => {
        const opened = createClient({ connection: createChdbConnection({ path: dir }) as never })
        const entry = { closed: false }
        made.push(entry)
        const close = opened.close.bind(opened)
        opened.close = () => {
          entry.closed = true
          return close()
        }
        return opened
      }
      yield* Effect.scoped(
        Effect.gen(function* () {
          const p = yield* ServerProvisioner.make({ accessControl: false, client })
          const [a, b] = [spec(), spec()]
          yield* p.start(a)
          yield* p.start(b)
          yield* p.stop(a.clusterId)
          // The admin's client and the two clusters' engines; the stopped one closed.
          expect(made.map((c) => c.closed)).toEqual([false, true, false])
        })
      )
      expect(made.map((c) => c.closed)).toEqual([true, true, true])
    })
  )

  it.scopedLive("an unreachable server makes the start fail with a clear message", () =>
    Effect.gen(function* () {
      const p = yield* ServerProvisioner.make({
        accessControl: true,
        client: () => createClient({ url: "http://127.0.0.1:1" })
      })
      const started = yield* Effect.flip(p.start(spec()))
      expect(started._tag).toBe("EngineUnavailable")
      expect(started.message).toBe(
        "The cluster's namespace could not be prepared: The ClickHouse server could not be reached (connection refused)."
      )
    })
  )
})
