/**
 * The CLI's management commands run as processes against one real server: tables,
 * databases, URL ingest; their tables checked against the API's JSON, their failures as
 * one clean line.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { eventually } from "../support/eventually.js"
import type { Server } from "./cliProcess.js"
import {
  api,
  cli,
  collect,
  configHome,
  EMAIL,
  expectCleanFailure,
  PASSWORD,
  spawnCli,
  startServer,
  waitFor
} from "./cliProcess.js"

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
  server = await startServer({
    SLUICE_URL_INGEST_ALLOW: "127.0.0.1",
    // Cluster metrics sampled often enough for `clusters metrics` to have points to draw.
    SLUICE_METRICS_INTERVAL_SECONDS: "1"
  })
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

/** A profile logged in as the admin user, for what API keys may not do (apps, saved searches). */
const userConfig = async () => {
  const config = configHome()
  const login = await cli(["login", "--password", "--email", EMAIL, "--url", server.url], {
    config,
    stdin: `${PASSWORD}\n`
  })
  expect(login.code, login.stderr).toBe(0)
  return config
}

describe("sluice spl, saved searches, promql, logs", () => {
  const T = Math.floor(Date.now() / 1000) - 3600
  // Four of ten events are server errors: web-1 three times, web-2 once.
  const statuses = [500, 200, 503, 200, 404, 500, 200, 200, 502, 200]
  const events = statuses.map((status, i) =>
    JSON.stringify({
      time: T + i * 60,
      host: status >= 500 && i !== 8 ? "web-1" : "web-2",
      source: "shop",
      sourcetype: "_json",
      index: "main",
      event: { status, user: `u${i}` }
    })
  )

  it("spl: rows, the timeline and the funnel's exact shares; an API key cannot install apps", async () => {
    const refused = await run(["apps", "install", "spl-app"])
    expect(refused.code).toBe(1)
    expectCleanFailure(refused)
    expect(refused.stderr).toContain("sluice login")
    const config = await userConfig()
    const installed = await cli(["apps", "install", "spl-app"], { config })
    expect(installed.code, installed.stderr).toBe(0)
    const apps = await cli(["apps", "--json"], { config })
    expect(JSON.parse(apps.stdout)).toMatchObject({
      apps: expect.arrayContaining([{ id: "spl-app", name: expect.any(String), installed: true }])
    })
    const sent = await fetch(`${server.url}/services/collector`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}` },
      body: events.join("\n")
    })
    expect(sent.status).toBe(200)
    const spl = "status>=500 | stats count by host | sort -count | head 1"
    const shown = await run(["spl", spl, "--earliest", "-24h", "--format", "table"])
    expect(shown.code, shown.stderr).toBe(0)
    const out = shown.stdout
    expect(out).toMatch(/^web-1\s+3$/m)
    expect(out).toContain("Timeline (events per bucket)")
    expect(out).toMatch(/[▁▂▃▄▅▆▇█]/)
    // 4 events, 2 hosts (kept 50%), sorted (100%), head 1 (50%).
    expect(out).toMatch(/^search status>=500\s+4$/m)
    expect(out).toMatch(/^stats count by host\s+2\s+50\.0%\s+2 \(50\.0%\)$/m)
    expect(out).toMatch(/^sort -count\s+2\s+100\.0%\s+0 \(0\.0%\)$/m)
    expect(out).toMatch(/^head 1\s+1\s+50\.0%\s+1 \(50\.0%\)$/m)
    const piped = await run(["spl", spl, "--earliest", "-24h"])
    expect(piped.stdout).toBe("web-1\t3\n")
    const fields = await run([
      "spl",
      "status>=500",
      "--earliest",
      "-24h",
      "--fields",
      "--format",
      "table"
    ])
    expect(fields.stdout).toMatch(/^host\s+string\s+100\.0%\s+2\s+web-1 \(3\), web-2 \(1\)$/m)
    const explained = await run(["spl", spl, "--earliest", "-24h", "--explain"])
    expect(explained.stdout).toContain("-- 2. stats count by host\nSELECT")
    const bad = await run(["spl", "status>=500 | bogus", "--earliest", "-24h"])
    expect(bad.code).toBe(1)
    expectCleanFailure(bad)
  })

  it("saved searches: create, list, show, update, run, delete", async () => {
    const config = await userConfig()
    const created = await cli(
      [
        "saved-searches",
        "create",
        "errors",
        "--spl",
        "status>=500 | stats count by host",
        "--earliest",
        "-24h"
      ],
      { config }
    )
    expect(created.code, created.stderr).toBe(0)
    const id = created.stdout.trim()
    const listed = await cli(["saved-searches", "list", "--json"], { config })
    expect(JSON.parse(listed.stdout)).toMatchObject({ searches: [{ id, name: "errors" }] })
    expect(
      (await cli(["saved-searches", "update", id, "--name", "server errors"], { config })).code
    ).toBe(0)
    const shown = await cli(["saved-searches", "show", id], { config })
    expect(shown.stdout).toMatch(/^name:\s+server errors$/m)
    expect(shown.stdout).toMatch(/^earliest:\s+-24h$/m)
    const ran = await cli(["saved-searches", "run", id], { config })
    expect(ran.code, ran.stderr).toBe(0)
    expect(ran.stdout).toBe("web-1\t3\nweb-2\t1\n")
    expect((await cli(["saved-searches", "delete", id, "--yes"], { config })).code).toBe(0)
    const gone = await cli(["saved-searches", "show", id], { config })
    expect(gone.code).toBe(1)
    expectCleanFailure(gone)
    const badTime = await cli(
      ["saved-searches", "create", "x", "--spl", "a", "--earliest", "yesterday"],
      {
        config
      }
    )
    expect(badTime.code).toBe(2)
    expect(badTime.stderr).toContain("--earliest")
  })

  it("promql: an instant table, a range chart, the raw JSON, and a parse error", async () => {
    const config = await userConfig()
    expect((await cli(["apps", "install", "metrics-app"], { config })).code).toBe(0)
    const instant = await run(["promql", "vector(2) + 1"])
    expect(instant.code, instant.stderr).toBe(0)
    expect(instant.stdout).toMatch(/^vector\(2\) \+ 1\s+3\s+\d{4}-/m)
    const json = await run(["promql", "vector(2)", "--format", "json"])
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: "success",
      data: { resultType: "vector", result: [{ metric: {}, value: [expect.any(Number), "2"] }] }
    })
    const chart = await run(["promql", "vector(1)", "--range", "1h", "--step", "1m"])
    expect(chart.code, chart.stderr).toBe(0)
    expect(chart.stdout).toContain("● vector(1)")
    expect(chart.stdout).toContain("└─")
    const broken = await run(["promql", "rate("])
    expect(broken.code).toBe(1)
    expectCleanFailure(broken)
    expect(broken.stderr).toContain("bad_data")
    const badRange = await run(["promql", "up", "--range", "an hour"])
    expect(badRange.code).toBe(2)
  })

  it("logs: filters by source, path and status; --follow prints new requests until Ctrl-C", async () => {
    await run(["tables"])
    const filtered = await run([
      "logs",
      "--source",
      "cli",
      "--path",
      "/v1/tables",
      "--status",
      "200",
      "--json"
    ])
    expect(filtered.code, filtered.stderr).toBe(0)
    const page = JSON.parse(filtered.stdout) as {
      logs: Array<{ source: string; path: string; status_code: number }>
    }
    expect(page.logs.length).toBeGreaterThan(0)
    for (const entry of page.logs)
      expect(entry).toMatchObject({ source: "cli", path: "/v1/tables", status_code: 200 })
    // A class of codes: the 404 of a missing table, not the 200s (the request log is
    // written after the answer, so the entry is looked for until it is there).
    await run(["tables", "describe", "never_made"])
    const misses = await Effect.runPromise(
      eventually(
        "the 404 in the request log",
        Effect.promise(async () => {
          const found = await run([
            "logs",
            "--path",
            "/v1/tables/never_made",
            "--status",
            "4xx",
            "--json"
          ])
          expect(found.code, found.stderr).toBe(0)
          const logs = (JSON.parse(found.stdout) as { logs: Array<{ status_code: number }> }).logs
          return logs.length === 0 ? undefined : logs
        })
      )
    )
    expect(misses.map((entry) => entry.status_code)).toEqual([404])
    const badStatus = await run(["logs", "--status", "4zz"])
    expect([badStatus.code, badStatus.stderr]).toEqual([
      2,
      'error: --status: "4zz" is not a status code or class (404, 5xx).\n'
    ])
    const badLevel = await run(["logs", "--level", "loud"])
    expect(badLevel.code).toBe(2)
    const child = spawnCli(["logs", "--follow", "--path", "/v1/databases", "--since", "1m"], {
      env: keyEnv()
    })
    const done = collect(child)
    await api(server, "GET", "/v1/databases?organization=default", server.adminKey)
    await waitFor(child.stdout!, (text) => /organization=default\b/.test(text))
    const marker = `/v1/databases?cluster=default`
    await api(server, "GET", marker, server.adminKey)
    await waitFor(child.stdout!, (text) => text.includes("cluster=default"))
    child.kill("SIGINT")
    const ended = await done
    expect(ended.code).toBe(130)
    expect(ended.stdout).toMatch(/200\s+GET\s+\/v1\/databases\?cluster=default/)
  })
})

describe("sluice keys", () => {
  it("creates a key printing its token once, lists it masked, deletes it so it is refused", async () => {
    const created = await run(["keys", "create", "loader", "--permission", "write_only"])
    expect(created.code, created.stderr).toBe(0)
    const token = created.stdout.trim()
    expect(token).toMatch(/^rt_\S+$/)
    const listed = await run(["keys", "list", "--json"])
    const key = (
      JSON.parse(listed.stdout) as {
        keys: Array<{ id: string; name: string; permission: string; hint: string }>
      }
    ).keys.find((k) => k.name === "loader")!
    expect(key).toMatchObject({ permission: "write_only", hint: `rt_***${token.slice(-4)}` })
    const table = await run(["keys"])
    expect(table.stdout).toMatch(
      new RegExp(`^${key.id}\\s+loader\\s+write_only\\s+rt_\\*\\*\\*`, "m")
    )
    expect(table.stdout).not.toContain(token)
    const used = await cli(["insert", "by_loader"], {
      env: { SLUICE_URL: server.url, SLUICE_TOKEN: token },
      stdin: '{"a":1}\n'
    })
    expect(used.code, used.stderr).toBe(0)
    expect((await run(["keys", "delete", key.id])).code).toBe(2)
    expect((await run(["keys", "delete", key.id, "--yes"])).code).toBe(0)
    const refused = await cli(["tables"], { env: { SLUICE_URL: server.url, SLUICE_TOKEN: token } })
    expect(refused.code).toBe(1)
    expectCleanFailure(refused)
    expect(refused.stderr).toContain("sluice login")
  })
})

describe("sluice clusters", () => {
  it("creates by CPU x GiB with --wait, stops and resumes following the status, deletes", async () => {
    const config = await userConfig()
    const unknown = await cli(["clusters", "create", "analytics", "--size", "3x9"], { config })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("2x8")
    const created = await cli(["clusters", "create", "analytics", "--size", "2x8", "--wait"], {
      config
    })
    expect(created.code, created.stderr).toBe(0)
    expect(created.stderr).toContain("analytics is ready.")
    const shown = await cli(["clusters", "show", "analytics", "--json"], { config })
    expect(JSON.parse(shown.stdout)).toMatchObject({
      name: "analytics",
      status: { ready: true },
      resources: { cpu_cores_per_replica: 2, memory_bytes_per_replica: 8 * 1024 ** 3 }
    })
    const stopped = await cli(["clusters", "stop", "analytics", "--wait"], { config })
    expect(stopped.code, stopped.stderr).toBe(0)
    const paused = await cli(["clusters", "show", "analytics", "--json"], { config })
    expect(JSON.parse(paused.stdout)).toMatchObject({ can_resume: true })
    const resumed = await cli(["clusters", "resume", "analytics", "--wait"], { config })
    expect(resumed.code, resumed.stderr).toBe(0)
    const listed = await cli(["clusters"], { config })
    expect(listed.stdout).toMatch(/^analytics\s+ready\s+1× 2 CPU, 8\.00 GiB/m)
    expect((await cli(["clusters", "delete", "analytics", "--yes"], { config })).code).toBe(0)
    const gone = await cli(["clusters", "show", "analytics"], { config })
    expect(gone.code).toBe(1)
    expectCleanFailure(gone)
  })

  it("metrics: the four cluster metrics as charts over --since, their values as the API gives them", async () => {
    const config = await userConfig()
    type Answer = { metrics: Array<{ name: string; points: Array<{ value: number }> }> }
    let answer: Answer
    for (;;) {
      const json = await cli(["clusters", "metrics", "default", "--since", "5m", "--json"], {
        config
      })
      expect(json.code, json.stderr).toBe(0)
      answer = JSON.parse(json.stdout) as Answer
      if (answer.metrics.every((m) => m.points.length >= 2)) break
    }
    expect(answer.metrics.map((m) => m.name)).toEqual([
      "total_read_queries",
      "total_write_queries",
      "max_cpu_cores",
      "max_memory_bytes"
    ])
    // The read-query chart's axis tops out at the largest count the API reports (or 1 when
    // every sample is 0). Samples keep arriving (each second here), so the chart is
    // compared with answers read just before and just after it that agree.
    const readMaxNow = async () => {
      const json = await cli(["clusters", "metrics", "default", "--since", "5m", "--json"], {
        config
      })
      const points = (JSON.parse(json.stdout) as Answer).metrics[0]!.points
      return Math.max(...points.map((p) => p.value))
    }
    let charts: Awaited<ReturnType<typeof cli>>
    let readMax: number
    for (;;) {
      const before = await readMaxNow()
      charts = await cli(["clusters", "metrics", "default", "--since", "5m"], { config })
      if (before === (await readMaxNow())) {
        readMax = before
        break
      }
    }
    expect(charts.code, charts.stderr).toBe(0)
    const titles = charts.stdout.split("\n").filter((l) => /^[A-Z].* \(/.test(l))
    expect(titles.map((t) => t.split(" (")[0])).toEqual([
      "Read queries",
      "Write queries",
      "CPU cores",
      "Memory"
    ])
    const readTop = Number(/Read queries[^\n]*\n\s*(\d+) │/.exec(charts.stdout)![1])
    expect(readTop).toBeGreaterThanOrEqual(readMax === 0 ? 1 : readMax)
    expect(charts.stdout).toMatch(/● replica-1/)
    const bad = await cli(["clusters", "metrics", "default", "--since", "soon"], { config })
    expect(bad.code).toBe(2)
    expectCleanFailure(bad)
    const missing = await cli(["clusters", "metrics", "nope"], { config })
    expect(missing.code).toBe(1)
    expect(missing.stderr).toContain("`sluice clusters`")
  })
})

describe("sluice organizations and members", () => {
  it("creates, renames and deletes an organization; adds a member, changes the role, removes", async () => {
    const config = await userConfig()
    const created = await cli(["organizations", "create", "acme"], { config })
    expect(created.code, created.stderr).toBe(0)
    const badName = await cli(["organizations", "create", "not a name"], { config })
    expect(badName.code).toBe(2)
    expectCleanFailure(badName)
    const renamed = await cli(["organizations", "rename", "acme", "acme-eu"], { config })
    expect(renamed.code, renamed.stderr).toBe(0)
    const listed = await cli(["organizations"], { config })
    expect(listed.stdout).toMatch(/^acme-eu\s+admin\s*$/m)
    expect(listed.stdout).not.toMatch(/^acme\s/m)

    const org = ["--organization", "acme-eu"]
    const added = await cli(["members", "add", "ana@example.com", "--password", ...org], {
      config,
      stdin: "ana-password-12345\n"
    })
    expect(added.code, added.stderr).toBe(0)
    expect(added.stderr).toContain("ana@example.com is a member of acme-eu (member)")
    const members = await cli(["members", "--json", ...org], { config })
    expect(
      (JSON.parse(members.stdout) as { members: Array<{ email: string; role: string }> }).members
        .map((m) => [m.email, m.role])
        .sort()
    ).toEqual([
      ["admin@localhost", "admin"],
      ["ana@example.com", "member"]
    ])

    // A member who is not an admin is refused with the server's 403, one line.
    const ana = configHome()
    const anaLogin = await cli(
      ["login", "--password", "--email", "ana@example.com", "--url", server.url],
      { config: ana, stdin: "ana-password-12345\n" }
    )
    expect(anaLogin.code, anaLogin.stderr).toBe(0)
    // Ana belongs to acme-eu alone: her login kept it, so a command naming no organization
    // acts there (`default`, the fallback, is not hers).
    const anaMembers = await cli(["members", "--json"], { config: ana })
    expect(anaMembers.code, anaMembers.stderr).toBe(0)
    expect(
      (JSON.parse(anaMembers.stdout) as { members: Array<{ email: string }> }).members
        .map((m) => m.email)
        .sort()
    ).toEqual(["admin@localhost", "ana@example.com"])
    const refused = await cli(["members", "add", "bo@example.com", ...org], { config: ana })
    expect(refused.code).toBe(1)
    expectCleanFailure(refused)

    const promoted = await cli(["members", "role", "ana@example.com", "admin", ...org], { config })
    expect(promoted.code, promoted.stderr).toBe(0)
    const anaSees = await cli(["organizations", "--json"], { config: ana })
    expect(JSON.parse(anaSees.stdout)).toEqual({
      organizations: [{ name: "acme-eu", role: "admin" }]
    })
    const unknown = await cli(["members", "remove", "nobody@example.com", "--yes", ...org], {
      config
    })
    expect(unknown.code).toBe(1)
    expectCleanFailure(unknown)
    expect((await cli(["members", "remove", "ana@example.com", ...org], { config })).code).toBe(2)
    const removed = await cli(["members", "remove", "ana@example.com", "--yes", ...org], {
      config
    })
    expect(removed.code, removed.stderr).toBe(0)
    const anaAfter = await cli(["organizations", "--json"], { config: ana })
    expect(JSON.parse(anaAfter.stdout)).toEqual({ organizations: [] })

    const deleted = await cli(["organizations", "delete", "acme-eu", "--yes"], { config })
    expect(deleted.code, deleted.stderr).toBe(0)
    const after = await cli(["organizations", "--json"], { config })
    expect(JSON.parse(after.stdout)).toEqual({
      organizations: [{ name: "default", role: "admin" }]
    })
  })
})
