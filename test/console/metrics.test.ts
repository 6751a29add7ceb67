/**
 * The console's PromQL view in Chromium against sluice as `npm start` runs it: samples
 * remote-written, then a range graph with one line per series and an instant table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
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

beforeAll(async () => {
  ;[sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  const session = await sessionOf(sluice, sluice.email, sluice.password)
  const installed = await api(
    sluice,
    "PUT",
    "/v1/apps/metrics-app?organization=default&cluster=default",
    { token: session }
  )
  expect(installed.status).toBe(200)
  const now = Date.now()
  const samples = (scale: number) =>
    Array.from({ length: 30 }, (_, i) => [now - (30 - i) * 60_000, i * scale] as const)
  const written = await fetch(`${sluice.url}/metrics-compat/api/v1/write`, {
    method: "POST",
    headers: { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${sluice.adminKey}` },
    body: remoteWriteBody([
      { labels: { __name__: "console_requests_total", job: "api" }, samples: samples(1) },
      { labels: { __name__: "console_requests_total", job: "web" }, samples: samples(2) }
    ])
  })
  expect(written.status).toBe(204)
  ;({ page, problems } = await openPage(browser))
  await page.goto(`${sluice.url}/default/default/metrics?database=default`)
  await signIn(page, sluice)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the metrics view", () => {
  it("graphs a range query over remote-written samples, one line per series", async () => {
    const editor = page.getByRole("textbox", { name: "PromQL query" })
    await editor.click()
    await page.keyboard.insertText("console_requests_total")
    await page.keyboard.press("Control+Enter")
    const chart = page.getByRole("img", { name: "PromQL range" })
    await poll(() => chart.locator("canvas").count()).toBe(1)
    const legend = await chart.locator(".u-legend .u-series").allTextContents()
    expect(legend.join(" ")).toContain('console_requests_total{job="api"}')
    expect(legend.join(" ")).toContain('console_requests_total{job="web"}')
    await screenshot(page, "metrics")
  })

  it("completes a matcher's label values from the API", async () => {
    const editor = page.getByRole("textbox", { name: "PromQL query" })
    await editor.click()
    await page.keyboard.press("ControlOrMeta+a")
    await page.keyboard.insertText('console_requests_total{job="')
    await page.keyboard.press("Control+Space")
    const options = page.locator(".cm-tooltip-autocomplete li .cm-completionLabel")
    await poll(() => options.allTextContents()).toEqual(["api", "web"])
    await page.keyboard.type("w")
    await poll(() => options.allTextContents()).toEqual(["web"])
    await page.keyboard.press("Enter")
    await poll(() => editor.textContent()).toBe('console_requests_total{job="web')
    await page.keyboard.insertText('"}')
    await screenshot(page, "metrics-label-values")
  })

  it("answers an instant query as a table", async () => {
    await page.getByLabel("Query kind").selectOption("instant")
    await page.getByRole("button", { name: "Run" }).click()
    const table = page.getByRole("table", { name: "Instant result" })
    await poll(() =>
      table.locator("tbody tr", { hasText: 'job="web"' }).locator("td").nth(1).textContent()
    ).toBe("58")
    expect(await table.locator("tbody tr").count()).toBe(1)
    expect(problems).toEqual([])
  })
})
