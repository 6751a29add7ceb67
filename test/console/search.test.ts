/**
 * The console's SPL search view in Chromium against sluice as `npm start` runs it:
 * timeline with drag-to-narrow, the stage funnel's percentages, a field value clicked
 * into the search, a saved search shared with a second user, live tail of a HEC event.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import {
  api,
  openPage,
  screenshot,
  sessionOf,
  signIn,
  startBrowser,
  startSluice
} from "./browser.js"
import type { Sluice } from "./browser.js"
import { poll } from "./poll.js"

let sluice: Sluice
let browser: Browser
let page: Page
let problems: Array<string>

const HOSTILE = '<img src=x onerror="window.__pwned=1">'
const SECOND = { email: "second@example.com", password: "second-user-password-31" }

const hec = (events: ReadonlyArray<unknown>) =>
  api(sluice, "POST", "/services/collector", {
    authorization: `Splunk ${sluice.adminKey}`,
    raw: events.map((event) => JSON.stringify(event)).join("\n")
  })

const editor = () => page.getByRole("textbox", { name: "SPL search" })
const search = async (spl: string) => {
  await editor().click()
  await page.keyboard.press("ControlOrMeta+a")
  await page.keyboard.press("Delete")
  await page.keyboard.insertText(spl)
  await page.keyboard.press("Control+Enter")
}

// The API's rule for a stage's share, written here from its words.
const shareByRule = (
  previous: { output_rows: number | null; truncated: boolean } | undefined,
  current: { output_rows: number | null; truncated: boolean }
) => {
  if (previous === undefined || previous.output_rows === null || current.output_rows === null)
    return ["", "", ""]
  if (previous.truncated || current.truncated || previous.output_rows <= 0) return ["", "", ""]
  if (current.output_rows > previous.output_rows) return ["", "", ""]
  const kept = (current.output_rows / previous.output_rows) * 100
  return [
    `${kept.toFixed(1)} %`,
    (previous.output_rows - current.output_rows).toLocaleString("en-US"),
    `${(100 - kept).toFixed(1)} %`
  ]
}

beforeAll(async () => {
  ;[sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  const session = await sessionOf(sluice, sluice.email, sluice.password)
  expect(
    (
      await api(sluice, "PUT", "/v1/apps/spl-app?organization=default&cluster=default", {
        token: session
      })
    ).status
  ).toBe(200)
  const added = await api(sluice, "POST", "/v1/organizations/default/members", {
    token: session,
    body: { email: SECOND.email, password: SECOND.password, role: "member" }
  })
  expect(added.status).toBe(201)
  const now = Math.floor(Date.now() / 1000)
  const events = Array.from({ length: 30 }, (_, i) => ({
    time: now - 60 * (i + 1),
    host: `web-${(i % 3) + 1}`,
    event: {
      message: `GET /items/${i} ${i % 5 === 0 ? 500 : 200}`,
      status: i % 5 === 0 ? 500 : 200
    }
  }))
  events.push({ time: now - 30, host: "web-1", event: HOSTILE as never })
  expect((await hec(events)).status).toBe(200)
  ;({ page, problems } = await openPage(browser))
  await page.goto(`${sluice.url}/default/default/search?database=default&earliest=-1h`)
  await signIn(page, sluice)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the SPL search view", () => {
  it("shows the events as text with their timeline, and narrows the window by dragging", async () => {
    await search("*")
    const events = page.getByRole("list", { name: "Events" })
    await poll(() => events.getByRole("listitem").count()).toBe(31)
    await poll(() => events.locator(".event-raw").allTextContents()).toContain(HOSTILE)
    expect(await page.locator("img").count()).toBe(0)
    expect(await page.evaluate("'__pwned' in window")).toBe(false)
    const bars = page.locator(".timeline rect")
    expect(await bars.count()).toBeGreaterThan(10)
    await screenshot(page, "search")
    const box = (await page.locator(".timeline svg").boundingBox())!
    // The events are in the last half hour of the hour: a window inside it holds fewer.
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 5 })
    await page.mouse.up()
    await page.waitForURL(/earliest=\d+&latest=\d+/)
    await poll(() => events.getByRole("listitem").count()).toBeLessThan(31)
  })

  it("shows each stage's rows and the kept and affected shares by the rule", async () => {
    const spl = "* | where status>=500 | head 2 | stats count by host"
    await search(spl)
    const funnel = page.getByRole("table", { name: "Stages" })
    await poll(() => funnel.locator("tbody tr").count()).toBe(4)
    const range = new URL(page.url()).searchParams
    const answer = await api(sluice, "POST", "/v1/spl/search", {
      body: { spl, earliest: range.get("earliest"), latest: range.get("latest") }
    })
    const stages = (
      JSON.parse(answer.text) as {
        stages: Array<{ output_rows: number | null; truncated: boolean }>
      }
    ).stages
    for (const [i, stage] of stages.entries()) {
      const cells = await funnel.locator("tbody tr").nth(i).locator("td").allTextContents()
      expect(cells.slice(1)).toEqual([
        stage.output_rows === null
          ? "—"
          : `${stage.truncated ? "≥ " : ""}${stage.output_rows.toLocaleString("en-US")}`,
        ...shareByRule(stages[i - 1], stage)
      ])
    }
    await screenshot(page, "search-funnel")
  })

  it("adds a clicked field value to the search, and excludes an alt-clicked one", async () => {
    await page.getByRole("combobox", { name: "Time range" }).selectOption("-1h")
    await search("*")
    await poll(() => page.getByLabel("Search statistics").textContent()).toMatch(/^31 events/)
    const fields = page.getByRole("complementary", { name: "Fields" })
    await fields.getByText("host", { exact: true }).click()
    await fields.getByRole("button", { name: "web-2" }).click()
    await poll(() => editor().textContent()).toBe('* host="web-2"')
    await poll(() => page.getByRole("list", { name: "Events" }).getByRole("listitem").count()).toBe(
      10
    )
    await fields.getByRole("button", { name: "web-2" }).click({ modifiers: ["Alt"] })
    await poll(() => editor().textContent()).toBe('* host="web-2" NOT host="web-2"')
  })

  it("saves a shared search that a second user sees", async () => {
    await search("status>=500 | stats count by host")
    await page.getByLabel("Save as").fill("5xx by host")
    await page.getByLabel("Visibility").selectOption("shared")
    await page.getByRole("button", { name: "Save", exact: true }).click()
    const saved = page.getByRole("complementary", { name: "Saved searches" })
    await screenshot(page, "search-saved")
    await poll(() => saved.getByRole("button", { name: "5xx by host", exact: true }).count()).toBe(
      1
    )
    const other = await openPage(browser)
    await other.page.goto(`${sluice.url}/default/default/search?database=default`)
    await signIn(other.page, { ...sluice, email: SECOND.email }, SECOND.password)
    const theirs = other.page.getByRole("complementary", { name: "Saved searches" })
    await poll(() => theirs.getByRole("button", { name: "5xx by host", exact: true }).count()).toBe(
      1
    )
    await theirs.getByRole("button", { name: "5xx by host", exact: true }).click()
    await poll(() => other.page.getByRole("textbox", { name: "SPL search" }).textContent()).toBe(
      "status>=500 | stats count by host"
    )
    await other.context.close()
  })

  it("live tail shows an event sent after the page opened", async () => {
    await search("*")
    await page.getByLabel("Live tail").check()
    const marker = `tail-marker-${Date.now()}`
    expect((await hec([{ time: Date.now() / 1000, host: "web-9", event: marker }])).status).toBe(
      200
    )
    await poll(() =>
      page.getByRole("list", { name: "Events" }).locator(".event-raw").allTextContents()
    ).toContain(marker)
    await page.getByLabel("Live tail").uncheck()
    expect(problems).toEqual([])
  })

  it("a link naming a search shows its results on opening", async () => {
    const spl = "status>=500 | stats count by host"
    await page.goto(
      `${sluice.url}/default/default/search?database=default&earliest=-1h&spl=${encodeURIComponent(spl)}`
    )
    // Events 0, 5, …, 25 have status 500, two on each of the three hosts.
    await poll(() => page.getByLabel("Search statistics").textContent()).toMatch(/^3 rows /)
    expect(await editor().textContent()).toBe(spl)
  })
})
