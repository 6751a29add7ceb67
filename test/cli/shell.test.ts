/**
 * The interactive shell at a real terminal (tmux): a statement typed over two lines and
 * its rows, Ctrl-C cancelling a running statement on the server while the shell stays,
 * Tab completing a keyword and a table name, Ctrl-D leaving, and the history kept across
 * runs (recalled whole with the up arrow) in a file of mode 0600.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import type { Server } from "./cliProcess.js"
import { api, cli, configHome, startServer } from "./cliProcess.js"
import type { Terminal } from "./terminal.js"
import { terminal } from "./terminal.js"

let server: Server
let term: Terminal
const config = configHome()
const state = configHome()

beforeAll(async () => {
  server = await startServer()
  const login = await cli(["login", "--api-key", "--url", server.url], {
    config,
    stdin: `${server.adminKey}\n`
  })
  if (login.code !== 0) throw new Error(login.stderr)
  const created = await api(server, "POST", "/v1/tables/shell_events", server.adminKey, [{ n: 1 }])
  if (created.status >= 300) throw new Error(created.text)
  term = terminal({ XDG_CONFIG_HOME: config, XDG_STATE_HOME: state })
}, 120_000)
afterAll(async () => {
  term?.close()
  await server?.stop()
})

const atPrompt = (screen: string) => /sluice>$/.test(screen.trimEnd())
const lastLine = (screen: string) => screen.trimEnd().split("\n").at(-1) ?? ""

describe("sluice shell at a terminal", () => {
  it("runs a statement typed over two lines; Ctrl-C cancels a running one; history survives", async () => {
    term.run("first", [])
    await term.waitFor("first", atPrompt)
    term.type("first", "SELECT number, number * 2 AS twice")
    term.press("first", "Enter")
    await term.waitFor("first", (s) => /-> $/m.test(s))
    term.type("first", "FROM numbers(3);")
    term.press("first", "Enter")
    const rows = await term.waitFor("first", (s) => /3 rows in/.test(s))
    expect(rows).toMatch(/number\s+twice\n[─ ]+\n\s+0\s+0\n\s+1\s+2\n\s+2\s+4\n3 rows in/)

    // A statement that runs until it is stopped, a row now and then.
    term.type("first", "SELECT number FROM numbers(1000000000000) WHERE number % 100000000 = 0;")
    term.press("first", "Enter")
    await term.waitFor("first", (s) => /^\s*100000000$/m.test(s))
    term.press("first", "C-c")
    const cancelled = await term.waitFor("first", (s) =>
      /Cancelled query \S+ on the server\.\nsluice>$/.test(s.trimEnd())
    )
    const queryId = /Cancelled query (\S+) on the server/.exec(cancelled)![1]!
    // The query leaves the server's running queries once its engine statement has stopped,
    // a moment after the cancel answered: from then on a cancel of its id is a 404.
    await expect
      .poll(
        async () =>
          (await api(server, "POST", "/v1/query/cancel", server.adminKey, { query_id: queryId }))
            .status,
        { timeout: 30_000 }
      )
      .toBe(404)

    // Still there: Tab completes a keyword, then the table after FROM.
    term.type("first", "sel")
    term.press("first", "Tab")
    await term.waitFor("first", (s) => /sluice> select$/m.test(lastLine(s)))
    term.type("first", " count() AS n from shell_e")
    term.press("first", "Tab")
    await term.waitFor("first", (s) => /from shell_events$/.test(lastLine(s)))
    term.type("first", ";")
    term.press("first", "Enter")
    await term.waitFor("first", (s) => /1 row in/.test(s))

    term.press("first", "C-d")
    await term.waitFor("first", (s) => /\[exit 0\]/.test(s))

    const history = path.join(state, "sluice", "history")
    expect(fs.statSync(history).mode & 0o777).toBe(0o600)
    expect(fs.readFileSync(history, "utf8")).toContain(
      "SELECT number, number * 2 AS twice FROM numbers(3);\n"
    )

    term.run("second", [])
    await term.waitFor("second", atPrompt)
    term.press("second", "Up", "Up", "Up")
    await term.waitFor("second", (s) =>
      lastLine(s).endsWith("sluice> SELECT number, number * 2 AS twice FROM numbers(3);")
    )
    term.press("second", "Enter")
    await term.waitFor("second", (s) => /3 rows in/.test(s))
    term.type("second", "exit")
    term.press("second", "Enter")
    await term.waitFor("second", (s) => /\[exit 0\]/.test(s))
  }, 120_000)

  it("runs piped statements one after another and stops at the first failure", async () => {
    const ok = await cli(["shell"], {
      config,
      stdin: "SELECT 1 AS a;\nSELECT 2\n  AS b; SELECT 3"
    })
    expect(ok.code, ok.stderr).toBe(0)
    expect(ok.stdout).toBe("1\n2\n3\n")
    const failed = await cli(["shell"], { config, stdin: "SELECT 1; SELEC 2; SELECT 3;" })
    expect(failed.code).toBe(1)
    expect(failed.stdout).toBe("1\n")
    expect(failed.stderr).toMatch(/^error: /m)
  })
})
