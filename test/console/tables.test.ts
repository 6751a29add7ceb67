/**
 * The console's tables and databases view in Chromium against sluice as `npm start`
 * runs it: list, describe, sample, a file dropped in, a table dropped after its name is
 * typed, databases created and deleted (`default` kept, as the API says).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { api, openPage, screenshot, signIn, startBrowser, startSluice } from "./browser.js"
import type { Sluice } from "./browser.js"
import { poll } from "./poll.js"

let sluice: Sluice
let browser: Browser
let page: Page
let problems: Array<string>

const HOSTILE = '<img src=x onerror="window.__pwned=1">'

beforeAll(async () => {
  ;[sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  ;({ page, problems } = await openPage(browser, { colorScheme: "dark" }))
  const rows = Array.from({ length: 3 }, (_, i) => ({
    request: { client: { geo: { country: ["DE", "FR", "US"][i] } } },
    ms: i * 10,
    note: HOSTILE
  }))
  expect((await api(sluice, "POST", "/v1/tables/events", { body: rows })).status).toBe(200)
  await page.goto(`${sluice.url}/default/default/tables?database=default`)
  await signIn(page, sluice)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the tables view", () => {
  it("lists tables with rows, and describes and samples one, values as text", async () => {
    const tables = page.getByRole("table", { name: "Tables" })
    await poll(() => tables.getByRole("row").nth(1).textContent()).toMatch(/^events3/)
    await tables.getByRole("button", { name: "events" }).click()
    await page.waitForURL(/table=events/)
    const columns = page.getByRole("table", { name: "Columns" })
    await poll(() => columns.locator("tbody td:first-child").allTextContents()).toEqual(
      expect.arrayContaining(["request.client.geo.country", "ms", "note"])
    )
    const sample = page.getByRole("grid")
    await poll(() => sample.getByRole("gridcell").allTextContents()).toContain(HOSTILE)
    expect(await page.locator("img").count()).toBe(0)
    expect(await page.evaluate("'__pwned' in window")).toBe(false)
    await screenshot(page, "tables")
  })

  it("keeps a wide table's actions in view, its sample scrolling on its own", async () => {
    const row = Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [`column_${i}`, `a value thirty characters long ${i}`])
    )
    expect((await api(sluice, "POST", "/v1/tables/wide", { body: [row] })).status).toBe(200)
    await page.goto(`${sluice.url}/default/default/tables?database=default&table=wide`)
    const drop = page.getByRole("button", { name: "Drop table…" })
    await drop.waitFor()
    const detail = page.getByRole("region", { name: "Table wide" })
    // One row is counted as one: "1 row", not "1 rows".
    await poll(() => detail.locator("p.muted").first().textContent()).toMatch(/^1 row · /)
    const viewport = page.viewportSize()!
    const button = (await drop.boundingBox())!
    expect(button.x + button.width).toBeLessThanOrEqual(viewport.width)
    // The list of tables keeps its room: its last column ends before the detail starts.
    const list = (await page.getByRole("table", { name: "Tables" }).boundingBox())!
    const detailBox = (await detail.boundingBox())!
    expect(list.x + list.width).toBeLessThanOrEqual(detailBox.x)
    const grid = page.getByRole("grid")
    expect(await grid.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true)
    await screenshot(page, "tables-wide")
    // "Query in SQL" opens the SQL view on the table, its rows shown without another click.
    await page.getByRole("button", { name: "Query in SQL" }).click()
    await page.waitForURL(/\/sql\?/)
    await poll(() => page.getByLabel("Statistics").textContent()).toMatch(/^1 row in /)
    await page.goBack()
  })

  it("inserts a dropped NDJSON file, with the insert's result", async () => {
    await page.getByLabel("Into table").fill("dropped")
    const text = '{"a":1,"b":"x"}\n{"a":2,"b":"y"}\n{"a":3,"b":"z"}\n'
    const transfer = await page.evaluateHandle(
      `(() => { const t = new DataTransfer(); t.items.add(new File([${JSON.stringify(text)}], "rows.ndjson", { type: "application/x-ndjson" })); return t })()`
    )
    await page.locator(".drop").dispatchEvent("drop", { dataTransfer: transfer })
    await poll(() => page.getByText(/rows inserted into dropped/).textContent()).toBe(
      "3 rows inserted into dropped from rows.ndjson."
    )
    const count = await api(sluice, "POST", "/v1/query", {
      body: { sql: "SELECT count() AS n FROM dropped", format: "JSONEachRow" }
    })
    expect(count.text.trim()).toBe('{"n":"3"}')
  })

  it("drops a table only once its name is typed", async () => {
    await page
      .getByRole("table", { name: "Tables" })
      .getByRole("button", { name: "dropped" })
      .click()
    await page.getByRole("button", { name: "Drop table…" }).click()
    const dialog = page.getByRole("dialog", { name: "Drop table dropped?" })
    const confirm = dialog.getByRole("button", { name: "Drop table" })
    expect(await confirm.isDisabled()).toBe(true)
    await dialog.getByLabel("Name").fill("dropped")
    await confirm.click()
    await poll(() =>
      page.getByRole("table", { name: "Tables" }).getByRole("button", { name: "dropped" }).count()
    ).toBe(0)
    expect((await api(sluice, "GET", "/v1/tables/dropped")).status).toBe(404)
  })

  it("creates and deletes a database; default, which the API keeps, offers no delete", async () => {
    await page.getByLabel("New database").fill("analytics")
    await page.getByRole("button", { name: "Create" }).click()
    const databases = page.getByRole("region", { name: "Databases" })
    await poll(() => databases.getByRole("link", { name: "analytics" }).count()).toBe(1)
    // The API refuses to delete it, so the console does not offer to.
    expect((await api(sluice, "DELETE", "/v1/databases/default")).status).toBe(409)
    expect(await databases.getByRole("button", { name: "Delete database default" }).count()).toBe(0)
    expect(await databases.getByText("kept: every cluster has it").count()).toBe(1)
    await databases.getByRole("button", { name: "Delete database analytics" }).click()
    await page.getByRole("dialog").getByLabel("Name").fill("analytics")
    await page.getByRole("dialog").getByRole("button", { name: "Delete database" }).click()
    await poll(() => databases.getByRole("link", { name: "analytics" }).count()).toBe(0)
    await screenshot(page, "tables-databases")
    expect(problems).toEqual([])
  })
})
