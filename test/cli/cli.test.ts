/**
 * The CLI's credentials and `query`, run as processes against a real server: logins by
 * key, password and device approval, profiles on disk, streaming, Ctrl-C, failure paths.
 */
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import * as zlib from "node:zlib"
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
  root,
  spawnCli,
  startServer,
  waitFor
} from "./cliProcess.js"

let server: Server
beforeAll(async () => {
  server = await startServer()
}, 120_000)
afterAll(() => server?.stop())

const keyEnv = () => ({ SLUICE_URL: server.url, SLUICE_TOKEN: server.adminKey })
const packageVersion = (
  JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }
).version

describe("sluice credentials", () => {
  it("logs in with an API key from stdin into a 0600 profile; whoami and query use it", async () => {
    const config = configHome()
    const login = await cli(["login", "--api-key", "--url", server.url], {
      config,
      stdin: `${server.adminKey}\n`
    })
    expect(login.code, login.stderr).toBe(0)
    const file = path.join(config, "sluice", "profiles.json")
    expect(fs.statSync(file).mode & 0o777).toBe(0o600)
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700)
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toMatchObject({
      current: "default",
      profiles: { default: { url: server.url, token: server.adminKey, credential: "api_key" } }
    })
    const who = await cli(["whoami"], { config })
    expect(who.code, who.stderr).toBe(0)
    expect(who.stdout).toMatch(/organization:\s+default/)
    const piped = await cli(
      ["query", "SELECT number, toString(number * 2) AS twice FROM numbers(3)"],
      { config }
    )
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stdout).toBe("0\t0\n1\t2\n2\t4\n")
    expect(piped.stderr).toMatch(/^3 rows in \d+\.\d+ s\./)
  })

  it("logs in with a password from stdin; a wrong one is one clear line", async () => {
    const config = configHome()
    const wrong = await cli(["login", "--password", "--email", EMAIL, "--url", server.url], {
      config,
      stdin: "not-the-password\n"
    })
    expect(wrong.code).toBe(1)
    expectCleanFailure(wrong)
    expect(fs.existsSync(path.join(config, "sluice", "profiles.json"))).toBe(false)
    const right = await cli(["login", "--password", "--email", EMAIL, "--url", server.url], {
      config,
      stdin: `${PASSWORD}\n`
    })
    expect(right.code, right.stderr).toBe(0)
    const who = await cli(["whoami", "--json"], { config })
    expect(JSON.parse(who.stdout)).toMatchObject({
      email: EMAIL,
      credential: "session",
      organizations: "default (admin)"
    })
    // Logging out ends the session on the server: the old token is refused afterwards.
    const token = (
      JSON.parse(fs.readFileSync(path.join(config, "sluice", "profiles.json"), "utf8")) as {
        profiles: { default: { token: string } }
      }
    ).profiles.default.token
    expect((await cli(["logout"], { config })).code).toBe(0)
    const expired = await cli(["query", "SELECT 1"], {
      env: { SLUICE_URL: server.url, SLUICE_TOKEN: token }
    })
    expect(expired.code).toBe(1)
    expectCleanFailure(expired)
    const notLoggedIn = await cli(["query", "SELECT 1"], { config })
    expect(notLoggedIn.code).toBe(1)
    expect(notLoggedIn.stderr).toContain("sluice login")
  })

  it("logs in by device approval given from a second process", async () => {
    const config = configHome()
    const child = spawnCli(["login", "--no-browser", "--url", server.url], { config })
    const done = collect(child)
    const shown = await waitFor(child.stderr!, (text) => /Waiting for approval/.test(text))
    const link = /Open(?:ed)? (\S+)/.exec(shown)![1]!
    const userCode = new URL(link).searchParams.get("user_code")!
    expect(shown).toContain(userCode)
    const form = (route: string, fields: Record<string, string>) =>
      fetch(server.url + route, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString()
      }).then((r) => r.text())
    const signedIn = await form("/v1/auth/cli/device", {
      user_code: userCode,
      email: EMAIL,
      password: PASSWORD
    })
    const pageToken = /name="page_token" value="([^"]+)"/.exec(signedIn)![1]!
    await form("/v1/auth/cli/device/decision", {
      user_code: userCode,
      page_token: pageToken,
      decision: "approve"
    })
    const run = await done
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(`as ${EMAIL}`)
    const who = await cli(["whoami", "--json"], { config })
    expect(JSON.parse(who.stdout)).toMatchObject({ email: EMAIL, credential: "session" })
  })
})

describe("sluice query", () => {
  it("writes the API's formats raw, and the statement from a file or stdin", async () => {
    const json = await cli(["query", "SELECT 1 AS one", "--format", "JSON"], { env: keyEnv() })
    expect(json.code, json.stderr).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ data: [{ one: 1 }], rows: 1 })
    const csv = await cli(["query", "--format", "CSVWithNames", "SELECT 'a' AS x"], {
      env: keyEnv()
    })
    expect(csv.stdout).toBe('"x"\n"a"\n')
    const file = path.join(configHome(), "q.sql")
    fs.writeFileSync(file, "SELECT 7 AS seven;\n")
    expect((await cli(["query", "-f", file], { env: keyEnv() })).stdout).toBe("7\n")
    expect((await cli(["query"], { env: keyEnv(), stdin: "SELECT 8" })).stdout).toBe("8\n")
  })

  it("sends x-service-client so the request log says source cli with the CLI's version", async () => {
    const run = await cli(["query", "--query-id", "source-check", "SELECT 1"], { env: keyEnv() })
    expect(run.code, run.stderr).toBe(0)
    // Request logs are written once a request completes, asynchronously.
    const logged = async (): Promise<unknown> => {
      const logs = await api(server, "GET", "/v1/logs?limit=50&paths=/v1/query", server.adminKey)
      const found = (logs.json as { logs: Array<{ request_body: string }> }).logs.find((entry) =>
        entry.request_body.includes('"query_id":"source-check"')
      )
      return found ?? (await new Promise((resolve) => setTimeout(resolve, 50)).then(logged))
    }
    const entry = await logged()
    expect(entry).toMatchObject({ source: "cli", client_version: packageVersion })
  })

  it("streams 10 M rows into a pipe with bounded memory", async () => {
    const child = spawnCli(["query", "SELECT number FROM numbers(10000000)"], { env: keyEnv() })
    let peak = 0
    let lines = 0
    let last = ""
    const sample = setInterval(() => {
      const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8")
      peak = Math.max(peak, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0))
    }, 20)
    child.stdout!.on("data", (chunk: Buffer) => {
      for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++
      last = chunk.toString().slice(-20)
    })
    const run = await collect(child)
    clearInterval(sample)
    expect(run.code, run.stderr).toBe(0)
    expect(lines).toBe(10_000_000)
    expect(last.endsWith("9999999\n")).toBe(true)
    expect(peak / 1024).toBeLessThan(150)
  }, 120_000)

  it("Ctrl-C cancels the query on the server, then exits 130", async () => {
    const queryId = `cli-cancel-${Date.now()}`
    const child = spawnCli(
      ["query", "--query-id", queryId, "SELECT number FROM numbers(100000000000)"],
      {
        env: keyEnv()
      }
    )
    // Rows arriving on stdout say the query runs on the server (a probe under the same id
    // could take the id first on a busy machine). They are counted, not kept.
    let stdoutBytes = 0
    let stderr = ""
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve))
    child.stdin!.end()
    await new Promise<void>((resolve) =>
      child.stdout!.on("data", (chunk: Buffer) => {
        if (stdoutBytes === 0) resolve()
        stdoutBytes += chunk.length
      })
    )
    child.kill("SIGINT")
    expect(await exited).toBe(130)
    expect(stdoutBytes).toBeGreaterThan(0)
    expect(stderr).toContain(`Cancelled query ${queryId} on the server.`)
    // A cancelled query leaves the server's running queries once its engine statement has
    // stopped, a moment after the cancel answered: then a cancel of it is a 404.
    await Effect.runPromise(
      eventually(
        "the cancelled query to leave the server",
        Effect.promise(async () => {
          const again = await api(server, "POST", "/v1/query/cancel", server.adminKey, {
            query_id: queryId
          })
          return again.status === 404 ? true : undefined
        })
      )
    )
  })

  it("fails clearly: bad argument (2), unreachable server, 403", async () => {
    const bad = await cli(["query", "--format", "XML", "SELECT 1"], { env: keyEnv() })
    expect(bad.code).toBe(2)
    expect(bad.stderr).not.toMatch(/\n\s+at /)
    const none = await cli(["query"], { env: keyEnv(), stdin: "" })
    expect(none.code).toBe(2)
    const down = await cli(["query", "SELECT 1"], {
      env: { SLUICE_URL: "http://127.0.0.1:9", SLUICE_TOKEN: "rt_x" }
    })
    expect(down.code).toBe(1)
    expectCleanFailure(down)
    expect(down.stderr).toContain("Cannot reach http://127.0.0.1:9")
    const created = await api(server, "POST", "/v1/keys", server.adminKey, {
      name: "writer",
      permission: "write_only"
    })
    const writer = (created.json as { token: string }).token
    const forbidden = await cli(["query", "SELECT 1"], {
      env: { SLUICE_URL: server.url, SLUICE_TOKEN: writer }
    })
    expect(forbidden.code).toBe(1)
    expectCleanFailure(forbidden)
    const syntax = await cli(["query", "SELEC 1"], { env: keyEnv() })
    expect(syntax.code).toBe(1)
    expectCleanFailure(syntax)
  })
})

describe("sluice failure paths", () => {
  it("an ended login session says so and how to log in again, for typed and streamed commands", async () => {
    const config = configHome()
    const login = await cli(["login", "--password", "--email", EMAIL, "--url", server.url], {
      config,
      stdin: `${PASSWORD}\n`
    })
    expect(login.code, login.stderr).toBe(0)
    const file = path.join(config, "sluice", "profiles.json")
    const { token } = (
      JSON.parse(fs.readFileSync(file, "utf8")) as { profiles: { default: { token: string } } }
    ).profiles.default
    // Ended on the server (as an expiry or a logout elsewhere would), kept in the profile.
    expect((await api(server, "POST", "/v1/auth/logout", token)).status).toBe(200)
    for (const args of [["tables"], ["query", "SELECT 1"], ["whoami"]]) {
      const run = await cli(args, { config })
      expect(run.code, args.join(" ")).toBe(1)
      expectCleanFailure(run)
      expect(run.stderr).toContain(`error: Your session on ${server.url} has ended`)
      expect(run.stderr).toContain("hint: Log in again: `sluice login`.")
    }
  })

  it("an unreachable server is one line naming the address and why, for typed and streamed commands", async () => {
    const closed = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo
        probe.close(() => resolve(port))
      })
    })
    const env = { SLUICE_URL: `http://127.0.0.1:${closed}`, SLUICE_TOKEN: "rt_x" }
    for (const args of [["tables"], ["query", "SELECT 1"], ["clusters"], ["keys", "create", "k"]]) {
      const run = await cli(args, { env })
      expect(run.code, args.join(" ")).toBe(1)
      expectCleanFailure(run)
      expect(run.stderr).toContain(
        `error: Cannot reach http://127.0.0.1:${closed}: connection refused.`
      )
    }
    const noHost = await cli(["tables"], {
      env: { SLUICE_URL: "http://no-such-host.invalid", SLUICE_TOKEN: "rt_x" }
    })
    expectCleanFailure(noHost)
    expect(noHost.stderr).toContain("no such host")
  })
})

/** A zstd frame of one raw block (Node 20 has no zstd compressor). */
const zlibZstd = (text: string) => {
  const content = Buffer.from(text)
  const header = (content.length << 3) | 1
  return Buffer.concat([
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, (17 - 10) << 3]),
    Buffer.from([header & 0xff, (header >> 8) & 0xff, (header >> 16) & 0xff]),
    content
  ])
}

describe("sluice insert", () => {
  const countOf = async (table: string) => {
    const reply = await api(server, "POST", "/v1/query", server.adminKey, {
      sql: `SELECT count() AS n FROM ${table}`
    })
    return reply.status === 200
      ? Number((reply.json as { data: Array<{ n: string | number }> }).data[0]!.n)
      : 0
  }

  it("a 100,000-record NDJSON gzip insert interrupted halfway and rerun has every row once", async () => {
    const dir = configHome()
    const file = path.join(dir, "events.ndjson.gz")
    const lines = Array.from({ length: 100_000 }, (_, i) =>
      JSON.stringify({ id: i, host: `web-${i % 7}` })
    )
    fs.writeFileSync(file, zlib.gzipSync(`${lines.join("\n")}\n`))
    const args = ["insert", "interrupted", file, "--batch-bytes", "100000"]
    const child = spawnCli(args, { env: keyEnv() })
    const done = collect(child)
    let seen = 0
    while ((seen = await countOf("interrupted")) === 0)
      await new Promise((resolve) => setImmediate(resolve))
    child.kill("SIGINT")
    expect((await done).code).toBe(130)
    const before = await countOf("interrupted")
    expect(before).toBeGreaterThanOrEqual(seen)
    expect(before).toBeLessThan(100_000)
    const rerun = await cli(args, { env: keyEnv() })
    expect(rerun.code, rerun.stderr).toBe(0)
    const after = await api(server, "POST", "/v1/query", server.adminKey, {
      sql: "SELECT count() AS n, uniqExact(id) AS ids FROM interrupted"
    })
    expect((after.json as { data: Array<unknown> }).data[0]).toMatchObject({
      n: "100000",
      ids: "100000"
    })
  }, 120_000)

  it("reads JSON arrays, zstd, directories and stdin", async () => {
    const dir = configHome()
    fs.mkdirSync(path.join(dir, "in"))
    fs.writeFileSync(path.join(dir, "in", "a.json"), JSON.stringify([{ n: 1 }, { n: 2 }]))
    fs.writeFileSync(path.join(dir, "in", "b.ndjson.zst"), zlibZstd('{"n":3}\n{"n":4}\n'))
    const files = await cli(["insert", "mixed", path.join(dir, "in")], { env: keyEnv() })
    expect(files.code, files.stderr).toBe(0)
    const piped = await cli(["insert", "mixed"], { env: keyEnv(), stdin: '{"n":5}\n' })
    expect(piped.code, piped.stderr).toBe(0)
    expect(piped.stderr).toContain("Inserted 1 row into mixed.")
    const sum = await api(server, "POST", "/v1/query", server.adminKey, {
      sql: "SELECT sum(n) AS s FROM mixed"
    })
    expect((sum.json as { data: Array<{ s: unknown }> }).data[0]!.s).toBe("15")
    const missing = await cli(["insert", "mixed", path.join(dir, "nope.json")], { env: keyEnv() })
    expect(missing.code).toBe(1)
    expectCleanFailure(missing)
    expect(missing.stderr).toContain(
      `error: Cannot read ${path.join(dir, "nope.json")}: no such file or directory.`
    )
    // Of several files, the one the server refused is named.
    fs.writeFileSync(path.join(dir, "in", "c.ndjson"), '{"n":6}\n{"n":\n')
    const refused = await cli(["insert", "mixed", path.join(dir, "in")], { env: keyEnv() })
    expect(refused.code).toBe(1)
    // After the files inserted before it (a rerun inserts those nothing twice).
    expect(refused.stderr).toContain("the same command run again inserts them nothing twice")
    expect(refused.stderr).toMatch(
      /a\.json: done\n.*b\.ndjson\.zst: done\nerror: .*c\.ndjson: Malformed body: .*\nhint: [^\n]*\n$/
    )
  })

  it("a record refused in a later batch is named by its line and number in the file", async () => {
    const dir = configHome()
    // 300 records of ~40 bytes in 1 KiB batches, blank lines among them (not sent); the
    // bad record is the file's 251st (record 250), on line 251 + 5 blank lines = 256.
    const lines = Array.from({ length: 300 }, (_, i) =>
      i === 250 ? '{"n":250,"bad":tru}' : JSON.stringify({ n: i, pad: "x".repeat(24) })
    )
    const text = lines.map((line, i) => (i % 50 === 10 ? `\n${line}` : line)).join("\n")
    const file = path.join(dir, "late.ndjson")
    fs.writeFileSync(file, `${text}\n`)
    expect(text.split("\n").indexOf('{"n":250,"bad":tru}') + 1).toBe(256)
    const run = await cli(["insert", "late", file, "--batch-bytes", "1024"], { env: keyEnv() })
    expect(run.code).toBe(1)
    expectCleanFailure(run)
    expect(run.stderr).toMatch(/^error: Malformed JSON in record 250 \(line 256\): /m)
  })
})
