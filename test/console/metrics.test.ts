/**
 * The console's PromQL view in Chromium against sluice as `npm start` runs it: on a cluster
 * without the metrics-app, a note that links to where it is installed; once it is installed
 * there and samples are remote-written, a range graph with one line per series and an
 * instant table.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Browser, Page } from "playwright-core"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { openPage, screenshot, signIn, startBrowser, startSluice } from "./browser.js"
import type { Sluice } from "./browser.js"
import { poll } from "./poll.js"

let sluice: Sluice
let browser: Browser
let page: Page
let problems: Array<string>

beforeAll(async () => {
  ;[sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  ;({ page, problems } = await openPage(browser))
  await page.goto(`${sluice.url}/default/default/metrics?database=default`)
  await signIn(page, sluice)
}, 120_000)

const writeSamples = async () => {
  const now = Date.now()
  const samples = (scale: number) =>
    Array.from({ length: 30 }, (_, i) => [now - (30 - i) * 60_000, i * scale] as const)
  return fetch(`${sluice.url}/metrics-compat/api/v1/write`, {
    method: "POST",
    headers: { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${sluice.adminKey}` },
    body: remoteWriteBody([
      { labels: { __name__: "console_requests_total", job: "api" }, samples: samples(1) },
      { labels: { __name__: "console_requests_total", job: "web" }, samples: samples(2) }
    ])
  })
}

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the metrics view", () => {
  it("says the metrics-app is missing on opening, and links to where it is installed", async () => {
    const note = page.getByRole("alert")
    await poll(() => note.textContent()).toContain(
      "The app metrics-app (Metrics-compatible endpoints) is not installed on this cluster."
    )
    // The service's hint names the API call; the console's, its own place for it.
    expect(await note.textContent()).not.toContain("PUT /v1/apps")
    await screenshot(page, "metrics-app-missing")
    await note.getByRole("link", { name: "Administration → Apps" }).click()
    await poll(() => new URL(page.url()).search).toBe("?database=default&tab=apps")
    expect(new URL(page.url()).pathname).toBe("/default/default/admin")
    expect(await page.getByRole("tab", { name: "Apps" }).getAttribute("aria-selected")).toBe("true")
    await page.getByRole("button", { name: "Install metrics-app" }).click()
    await poll(() => page.getByRole("button", { name: "Uninstall metrics-app" }).count()).toBe(1)
    // Each app says where senders and readers are pointed, and links its view once installed.
    const apps = page.getByRole("region", { name: "Apps" })
    expect(await apps.textContent()).toContain(`${sluice.url}/metrics-compat/api/v1/write`)
    expect(await apps.textContent()).toContain(`${sluice.url}/otlp`)
    expect(await apps.getByRole("link", { name: "Open Metrics" }).getAttribute("href")).toBe(
      "/default/default/metrics?database=default"
    )
    expect(await apps.getByRole("link", { name: "Open Search" }).count()).toBe(0)
    await screenshot(page, "admin-apps")
    expect((await writeSamples()).status).toBe(204)
    // Back to the view the link was followed from: it opens without the note.
    await page.goBack()
    await poll(() => new URL(page.url()).pathname).toBe("/default/default/metrics")
    await page.getByRole("textbox", { name: "PromQL query" }).waitFor()
    expect(await page.getByRole("alert").count()).toBe(0)
  })

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

  it("says when no series match, rather than an empty chart or table", async () => {
    const editor = page.getByRole("textbox", { name: "PromQL query" })
    await editor.click()
    await page.keyboard.press("Control+a")
    await page.keyboard.insertText("no_such_metric_total")
    await page.getByRole("button", { name: "Run" }).click()
    await poll(() => page.getByRole("status").textContent()).toBe("No series match this query now.")
    await page.getByLabel("Query kind").selectOption("range")
    await page.getByRole("button", { name: "Run" }).click()
    await poll(() => page.getByRole("status").textContent()).toBe(
      "No series match this query in the last 1h."
    )
    await screenshot(page, "metrics-no-series")
  })

  it("a link naming a query shows its answer on opening", async () => {
    await page.goto(
      `${sluice.url}/default/default/metrics?database=default&mode=instant&promql=${encodeURIComponent('console_requests_total{job="api"}')}`
    )
    const table = page.getByRole("table", { name: "Instant result" })
    await poll(() => table.locator("tbody tr").locator("td").nth(1).textContent()).toBe("29")
    expect(await table.locator("tbody tr").count()).toBe(1)
  })
})
