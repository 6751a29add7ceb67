/**
 * The CLI's management commands run as processes against one real server: tables,
 * databases, URL ingest; their tables checked against the API's JSON, their failures as
 * one clean line.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Server } from "./cliProcess.js"
import { api, cli, expectCleanFailure, startServer } from "./cliProcess.js"

let server: Server
let files: http.Server
let filesUrl: string
const records = Array.from({ length: 30_000 }, (_, i) =>
  JSON.stringify({ id: i, tag: `t${i % 3}` })
)

beforeAll(async () => {
  files = http.createServer((request, response) => {
    if (request.url === "/rows.ndjson") response.end(`${records.join("\n")}\n`)
    else response.writeHead(404).end("not here")
  })
  await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve))
  filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`
  server = await startServer({ SLUICE_URL_INGEST_ALLOW: "127.0.0.1" })
}, 120_000)
afterAll(async () => {
  files?.close()
  await server?.stop()
})

const keyEnv = () => ({ SLUICE_URL: server.url, SLUICE_TOKEN: server.adminKey })
const run = (args: ReadonlyArray<string>, stdin?: string) =>
  cli(args, { env: keyEnv(), ...(stdin === undefined ? {} : { stdin }) })

describe("sluice tables and databases", () => {
  it("lists tables with rows, bytes and created, as the API says; --json is the API's answer", async () => {
    const inserted = await run(["insert", "listed"], '{"a":1}\n{"a":2}\n{"a":3}\n')
    expect(inserted.code, inserted.stderr).toBe(0)
    const listed = await api(server, "GET", "/v1/tables", server.adminKey)
    const table = (
      listed.json as { tables: Array<{ name: string; total_rows: number; created_at: string }> }
    ).tables.find((t) => t.name === "listed")!
    const text = await run(["tables"])
    expect(text.code, text.stderr).toBe(0)
    const lines = text.stdout.trim().split("\n")
    expect(lines[0]).toMatch(/^table\s+rows\s+bytes\s+created$/)
    const row = lines.find((l) => l.startsWith("listed "))!
    expect(row).toMatch(/^listed\s+3\s+\d/)
    expect(row).toContain(table.created_at.slice(0, 19).replace("T", " "))
    const json = await run(["tables", "list", "--json"])
    expect(JSON.parse(json.stdout)).toEqual(listed.json)
  })

  it("describes a table's columns; a missing one fails with the API's message and hint", async () => {
    await run(["insert", "described"], '{"host":"a","code":200}\n')
    const described = await run(["tables", "describe", "described"])
    expect(described.code, described.stderr).toBe(0)
    expect(described.stdout).toMatch(/^table:\s+default\.described$/m)
    expect(described.stdout).toMatch(/^rows:\s+1$/m)
    expect(described.stdout).toMatch(/^code\s+Nullable\(Int64\)$/m)
    expect(described.stdout).toMatch(/^host\s+Nullable\(String\)$/m)
    const missing = await run(["tables", "describe", "nowhere"])
    expect(missing.code).toBe(1)
    expectCleanFailure(missing)
    expect(missing.stderr).toMatch(/error: .*nowhere.*\nhint: /)
    const invalid = await run(["tables", "describe", "no-such"])
    expect(invalid.code).toBe(2)
    expectCleanFailure(invalid)
  })

  it("drops a table only with --yes when there is no terminal to ask", async () => {
    await run(["insert", "doomed"], '{"a":1}\n')
    const refused = await run(["tables", "drop", "doomed"])
    expect(refused.code).toBe(2)
    expect(refused.stderr).toContain("--yes")
    expect((await api(server, "GET", "/v1/tables/doomed", server.adminKey)).status).toBe(200)
    const dropped = await run(["tables", "drop", "doomed", "--yes"])
    expect(dropped.code, dropped.stderr).toBe(0)
    expect((await api(server, "GET", "/v1/tables/doomed", server.adminKey)).status).toBe(404)
  })

  it("creates, lists and deletes databases; a duplicate is a clean failure", async () => {
    expect((await run(["databases", "create", "staging"])).code).toBe(0)
    const duplicate = await run(["databases", "create", "staging"])
    expect(duplicate.code).toBe(1)
    expectCleanFailure(duplicate)
    const listed = await run(["databases"])
    expect(listed.stdout.split("\n").map((l) => l.trim())).toEqual(
      expect.arrayContaining(["default", "staging"])
    )
    const json = await run(["databases", "list", "--json"])
    expect(JSON.parse(json.stdout)).toEqual(
      (await api(server, "GET", "/v1/databases", server.adminKey)).json
    )
    expect((await run(["databases", "delete", "staging", "--yes"])).code).toBe(0)
    const names = (
      (await api(server, "GET", "/v1/databases", server.adminKey)).json as {
        databases: Array<{ name: string }>
      }
    ).databases.map((d) => d.name)
    expect(names).not.toContain("staging")
  })
})

describe("sluice ingest-url", () => {
  it("shows the server's progress stream as lines and inserts the file", async () => {
    const loaded = await run(["ingest-url", "fetched", `${filesUrl}/rows.ndjson`])
    expect(loaded.code, loaded.stderr).toBe(0)
    expect(loaded.stderr).toMatch(/^started: query \S+, format ndjson$/m)
    expect(loaded.stderr).toMatch(/^done: 30,000 rows inserted, /m)
    const count = await api(server, "POST", "/v1/query", server.adminKey, {
      sql: "SELECT count() AS n, uniqExact(id) AS ids FROM fetched"
    })
    expect((count.json as { data: Array<unknown> }).data[0]).toMatchObject({
      n: "30000",
      ids: "30000"
    })
    const missing = await run(["ingest-url", "fetched", `${filesUrl}/missing.ndjson`])
    expect(missing.code).toBe(1)
    expectCleanFailure(missing)
    expect(missing.stderr).toContain("404")
  })
})
