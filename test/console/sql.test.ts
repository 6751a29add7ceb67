/**
 * The console's sign-in, scope and SQL view, in Chromium against sluice as `npm start`
 * runs it: what a user sees and what the service was asked.
 */
import * as fs from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { api, openPage, screenshot, signIn, startBrowser, startSluice } from "./browser.js"
import type { Sluice } from "./browser.js"
import { poll } from "./poll.js"

let sluice: Sluice
let browser: Browser
let page: Page
let problems: Array<string>

const editor = () => page.getByRole("textbox", { name: "SQL query" })
const typeQuery = async (sql: string) => {
  await editor().click()
  await page.keyboard.press("ControlOrMeta+a")
  await page.keyboard.press("Delete")
  await page.keyboard.insertText(sql)
}
const runQuery = async (sql: string) => {
  await typeQuery(sql)
  await page.keyboard.press("Control+Enter")
}

beforeAll(async () => {
  ;[sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  ;({ page, problems } = await openPage(browser))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the console", () => {
  it("is served at / with its policy, and hashed assets cached for a year", async () => {
    const index = await fetch(`${sluice.url}/default/default/sql?database=default`)
    expect(index.status).toBe(200)
    const policy = index.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toContain("unsafe-inline")
    expect(policy).not.toContain("unsafe-eval")
    expect(index.headers.get("x-frame-options")).toBe("DENY")
    const html = await index.text()
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/)
    const script = /src="(\/assets\/main-[A-Z0-9]+\.js)"/.exec(html)![1]!
    const asset = await fetch(sluice.url + script)
    expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable")
    expect(asset.headers.get("content-type")).toContain("text/javascript")
    // The API keeps its paths: an unknown one is still the API's 404.
    const unknown = await fetch(`${sluice.url}/v1/no-such-endpoint`)
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ error: "not_found" })
  })

  it("signs in with the first start's password, showing the API's words for a wrong one", async () => {
    await page.goto(sluice.url)
    await signIn(page, sluice, "not-the-password")
    await poll(() => page.getByRole("alert").textContent()).toMatch(/password/i)
    const wrong = await api(sluice, "POST", "/v1/auth/login", {
      body: { email: sluice.email, password: "not-the-password" }
    })
    expect(await page.getByRole("alert").locator("strong").textContent()).toBe(
      JSON.parse(wrong.text).message
    )
    await screenshot(page, "sign-in")
    await signIn(page, sluice)
    await page.waitForURL(/\/default\/default\/sql\?database=default$/)
    await poll(() => page.getByLabel("Organization").inputValue()).toBe("default")
    expect(await page.getByLabel("Cluster").inputValue()).toBe("default")
    expect(await page.getByLabel("Database").inputValue()).toBe("default")
    // The token is kept in this tab only, and never in the address.
    expect(page.url()).not.toMatch(/eyJ/)
  })

  it("runs a query with Ctrl+Enter and shows its rows, types and statistics", async () => {
    await runQuery("SELECT number AS n, toString(number * 2) AS doubled FROM numbers(5)")
    const grid = page.getByRole("grid")
    await poll(() => grid.getByRole("gridcell").allTextContents()).toEqual([
      "0",
      "0",
      "1",
      "2",
      "2",
      "4",
      "3",
      "6",
      "4",
      "8"
    ])
    expect(await grid.getByRole("columnheader").allTextContents()).toEqual([
      "#",
      "nUInt64",
      "doubledString"
    ])
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^5 rows in /)
    expect(page.url()).toContain("sql=SELECT+number")
    // The request log is written after the response: wait for the entry to be listed.
    const loggedQuery = async () => {
      const logs = await api(sluice, "GET", "/v1/logs?sources=ui&limit=200")
      const entries = JSON.parse(logs.text) as {
        logs: Array<{ path: string; source: string; client_version: string | null }>
      }
      return entries.logs.find((entry) => entry.path === "/v1/query")
    }
    await poll(loggedQuery).toMatchObject({ source: "ui", client_version: "0.1.0" })
    await screenshot(page, "sql")
  })

  it("shows a value that is markup as text and runs nothing", async () => {
    const hostile = '<img src=x onerror="window.__pwned=1">'
    const inserted = await api(sluice, "POST", "/v1/tables/hostile", { body: [{ name: hostile }] })
    expect(inserted.status).toBe(200)
    await runQuery("SELECT name FROM hostile")
    const cell = page.getByRole("grid").getByRole("gridcell").first()
    await poll(() => cell.textContent()).toBe(hostile)
    expect(await page.locator("img").count()).toBe(0)
    expect(await page.evaluate("'__pwned' in window")).toBe(false)
  })

  it("marks a failing query's place and shows the API's message, its hint in the console's words", async () => {
    await runQuery("SELECT no_such_column FROM numbers(1)")
    const alert = page.getByRole("alert")
    await poll(() => alert.textContent()).toContain("no_such_column")
    // The service's hint names GET /v1/tables; the console names its view for the same.
    expect(await alert.locator(".hint").textContent()).toBe(
      "Check the SQL. The Tables view lists the tables and their columns."
    )
    // No "0 rows in …" under a query that failed before any row.
    expect(await page.getByLabel("Statistics").textContent()).toBe("")
  })

  it("cancels a long query with Esc, and the service no longer runs it", async () => {
    const sent = page.waitForRequest(
      (request) =>
        request.url().includes("/v1/query") &&
        request.method() === "POST" &&
        (request.postData() ?? "").includes("numbers_mt")
    )
    await runQuery("SELECT number % 7 AS k, count() FROM numbers_mt(1000000000000) GROUP BY k")
    const queryId = (JSON.parse((await sent).postData()!) as { query_id: string }).query_id
    await poll(() => page.getByRole("status").textContent()).toMatch(/^Running/)
    await page.keyboard.press("Escape")
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^Cancelled/)
    // The query leaves the service's running queries once its engine statement has stopped,
    // a moment after the cancel answered: from then on a cancel of its id finds nothing.
    await poll(
      async () =>
        (await api(sluice, "POST", "/v1/query/cancel", { body: { query_id: queryId } })).status
    ).toBe(404)
  })

  it("exports a 100,000-row result whole, as /v1/query answers it, as a streamed download", async () => {
    // A browser without the File System Access API: the service worker's download.
    await page.evaluate("window.showSaveFilePicker = undefined")
    const sql = "SELECT number, toString(number) AS s, number / 3 AS third FROM numbers(100000)"
    await typeQuery(sql)
    await page.getByLabel("Export as").selectOption("CSV")
    const download = page.waitForEvent("download")
    await page.getByRole("button", { name: "Export" }).click()
    const file = fs.readFileSync(await (await download).path())
    const expected = await api(sluice, "POST", "/v1/query", {
      body: { sql, format: "CSVWithNames" }
    })
    expect(file.toString()).toBe(expected.text)
    expect(file.toString().split("\n").length).toBe(100_002)
    // The worker told the page the end: the button is back.
    await poll(() => page.getByRole("button", { name: "Export", exact: true }).count()).toBe(1)
  })

  it("exports into a file the user picks, chunk by chunk, JSON as one array", async () => {
    // The picker stands in for the user's choice: its file records each write.
    await page.evaluate(`window.showSaveFilePicker = async (options) => {
      window.__picked = { name: options.suggestedName, writes: 0, text: "" }
      const decoder = new TextDecoder()
      return { createWritable: async () => new WritableStream({
        write(chunk) { window.__picked.writes++; window.__picked.text += decoder.decode(chunk, { stream: true }) },
        close() { window.__picked.closed = true }
      }) }
    }`)
    const sql = "SELECT number, toString(number) AS s FROM numbers(100000)"
    await typeQuery(sql)
    await page.getByLabel("Export as").selectOption("JSON")
    await page.getByRole("button", { name: "Export" }).click()
    await poll(() => page.evaluate("window.__picked?.closed === true")).toBe(true)
    const picked = (await page.evaluate("window.__picked")) as {
      name: string
      writes: number
      text: string
    }
    expect(picked.name).toMatch(/^result-.*\.json$/)
    expect(picked.writes).toBeGreaterThan(1)
    const expected = await api(sluice, "POST", "/v1/query", {
      body: { sql, format: "JSONEachRow" }
    })
    const rows = expected.text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown)
    expect(rows.length).toBe(100_000)
    expect(JSON.parse(picked.text)).toEqual(rows)
    await page.evaluate("window.showSaveFilePicker = undefined")
  })

  it("streams 100,000 rows into a grid that draws only what is in view", async () => {
    await runQuery("SELECT number, toString(number) AS s FROM numbers(100000)")
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^100,000 rows/)
    const grid = page.getByRole("grid")
    expect(await grid.getAttribute("aria-rowcount")).toBe("100001")
    expect(await grid.getByRole("row").count()).toBeLessThan(100)
    await grid.evaluate((element) => (element.scrollTop = 26 * 99_990))
    await poll(() => grid.getByRole("rowheader").allTextContents()).toContain("100000")
  })

  it("charts the result", async () => {
    await runQuery("SELECT number AS x, number * number AS y FROM numbers(20)")
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^20 rows/)
    await page.getByRole("button", { name: "Chart" }).click()
    await page.getByLabel("Chart Y column").selectOption("y")
    await poll(() => page.locator(".chart canvas").count()).toBe(1)
    await screenshot(page, "sql-chart")
  })

  it("keeps what was typed when the session ends, and signs in again over it", async () => {
    await typeQuery("SELECT 'typed before the session ended' AS kept")
    const token = await page.evaluate<string | null>("sessionStorage.getItem('sluice.session')")
    expect((await api(sluice, "POST", "/v1/auth/logout", { token: token! })).status).toBe(200)
    await page.keyboard.press("Control+Enter")
    await poll(() => page.getByRole("heading", { name: "Your session ended" }).count()).toBe(1)
    await screenshot(page, "session-ended")
    await page.getByLabel("Password").fill(sluice.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await poll(() => page.getByRole("heading", { name: "Your session ended" }).count()).toBe(0)
    expect(await editor().textContent()).toBe("SELECT 'typed before the session ended' AS kept")
    await page.reload()
    await poll(() => editor().textContent()).toContain("typed before the session ended")
  })

  it("a link naming a query shows its rows on opening", async () => {
    await page.goto(
      `${sluice.url}/default/default/sql?database=default&sql=${encodeURIComponent("SELECT 40 + 2 AS answer")}`
    )
    await poll(() => page.getByRole("grid").getByRole("gridcell").allTextContents()).toEqual(["42"])
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^1 row in /)
  })

  it("a link naming an organization, cluster or database the user lacks says which, once", async () => {
    const cases = [
      [
        "/nope/default/sql?database=default",
        "You are not a member of an organization named 'nope'."
      ],
      [
        "/default/nothing/sql?database=default",
        "Organization 'default' has no cluster named 'nothing'."
      ],
      ["/default/default/sql?database=nodb", "Cluster 'default' has no database named 'nodb'."],
      // Was: the SQL view, as if the link had named it.
      [
        "/default/default/dashboards?database=default",
        "The console has no view named 'dashboards'."
      ]
    ] as const
    for (const [link, said] of cases) {
      await page.goto(`${sluice.url}${link}`)
      const alert = page.getByRole("alert")
      await poll(() => alert.locator("strong").allTextContents()).toEqual([said])
      // The view is not drawn under it, so no call of its fails a second time.
      expect(await page.getByRole("textbox", { name: "SQL query" }).count()).toBe(0)
      // Nor is a view the link did not name marked as the one open.
      if (link.includes("/dashboards"))
        expect(await page.locator("nav [aria-current=page]").count()).toBe(0)
    }
    await page.goto(`${sluice.url}/default/default/sql?database=default`)
    await poll(() => page.getByRole("textbox", { name: "SQL query" }).count()).toBe(1)
    expect(await page.getByRole("alert").count()).toBe(0)
  })

  it("signs out, revoking the session", async () => {
    const token = await page.evaluate<string | null>("sessionStorage.getItem('sluice.session')")
    expect((await api(sluice, "GET", "/v1/organizations", { token: token! })).status).toBe(200)
    await page.getByRole("button", { name: "Sign out" }).click()
    await poll(() => page.getByRole("heading", { name: "Sign in to sluice" }).count()).toBe(1)
    expect((await api(sluice, "GET", "/v1/organizations", { token: token! })).status).toBe(401)
    expect(problems).toEqual([])
  })
})
