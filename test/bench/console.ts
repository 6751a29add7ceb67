/**
 * `npm run bench console`: the web console in Debian's Chromium against sluice as
 * `npm start` runs it. Prints the page's initial JavaScript (gzip), the SQL view's first
 * render after a cold navigation, the first rows drawn after their bytes arrived, the
 * longest main-thread task while 100,000 rows stream in, and a 1,000,000-event SPL
 * search's time in the page against the API call's (`BENCH_CONSOLE_EVENTS` to change).
 */
import { gzipSync } from "node:zlib"
import { api, openPage, sessionOf, startBrowser, startSluice } from "../console/browser.js"
import type { Sluice } from "../console/browser.js"

const EVENTS = Number(process.env.BENCH_CONSOLE_EVENTS ?? "1000000")
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The page's script and every chunk it imports before it runs, gzip-compressed. */
const initialJavaScript = async (sluice: Sluice) => {
  const html = await (await fetch(`${sluice.url}/`)).text()
  const pending = [/src="\/assets\/([^"]+\.js)"/.exec(html)![1]!]
  const seen = new Set<string>()
  let total = 0
  while (pending.length > 0) {
    const name = pending.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    const body = Buffer.from(await (await fetch(`${sluice.url}/assets/${name}`)).arrayBuffer())
    total += gzipSync(body).byteLength
    // Static imports only: `import("./…")` loads later, with the view that needs it.
    for (const match of body.toString().matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
      if (!body.toString().includes(`import("./${match[1]}")`)) pending.push(match[1]!)
  }
  let preloaded = 0
  for (const match of html.matchAll(/rel="modulepreload" href="\/assets\/([^"]+)"/g))
    if (!seen.has(match[1]!))
      preloaded += gzipSync(
        Buffer.from(await (await fetch(`${sluice.url}/assets/${match[1]}`)).arrayBuffer())
      ).byteLength
  return { total, files: seen.size, preloaded }
}

const ROUNDS = 3

const seedEvents = async (sluice: Sluice) => {
  const now = Math.floor(Date.now() / 1000)
  const batch = 50_000
  for (let start = 0; start < EVENTS; start += batch) {
    const lines: Array<string> = []
    for (let i = start; i < Math.min(EVENTS, start + batch); i++)
      lines.push(
        JSON.stringify({
          time: now - (i % 86_000),
          host: `web-${i % 7}`,
          event: {
            message: `GET /items/${i % 1000} ${i % 13 === 0 ? 500 : 200}`,
            status: i % 13 === 0 ? 500 : 200
          }
        })
      )
    const reply = await api(sluice, "POST", "/services/collector", {
      authorization: `Splunk ${sluice.adminKey}`,
      raw: lines.join("\n")
    })
    if (reply.status !== 200) throw new Error(`HEC answered ${reply.status}: ${reply.text}`)
  }
}

export const consoleBench = async () => {
  const [sluice, browser] = await Promise.all([startSluice(), startBrowser()])
  try {
    const js = await initialJavaScript(sluice)
    console.log(
      `initial JavaScript: ${kb(js.total)} gzip in ${js.files} files (target ≤ 400 KB)${js.preloaded === 0 ? "" : `; preloaded beside it: ${kb(js.preloaded)}`}`
    )

    const token = await sessionOf(sluice, sluice.email, sluice.password)
    // Each round a new context: an empty cache. The fastest is the page's own time.
    const renders: Array<number> = []
    let opened = await openPage(browser)
    for (let round = 0; round < ROUNDS; round++) {
      if (round > 0) {
        await opened.context.close()
        opened = await openPage(browser)
      }
      await opened.context.addInitScript(
        `sessionStorage.setItem("sluice.session", ${JSON.stringify(token)}); localStorage.setItem("sluice.draft.sql", "SELECT 1")`
      )
      const started = Date.now()
      await opened.page.goto(`${sluice.url}/default/default/sql?database=default`)
      await opened.page.getByRole("textbox", { name: "SQL query" }).waitFor()
      renders.push(Date.now() - started)
    }
    const { page } = opened
    console.log(
      `SQL view first render, cold cache: fastest ${Math.min(...renders)} ms of ${renders.join(", ")} (target ≤ 1,000 ms)`
    )

    await page.evaluate(`(() => {
      window.__longest = 0
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration) }).observe({ type: "longtask", buffered: false })
      window.__firstRow = null
      new MutationObserver(() => { if (window.__firstRow === null && document.querySelector(".grid-row")) window.__firstRow = performance.now() })
        .observe(document.body, { childList: true, subtree: true })
    })()`)
    const editor = page.getByRole("textbox", { name: "SQL query" })
    await editor.click()
    await page.keyboard.press("ControlOrMeta+a")
    await page.keyboard.insertText(
      "SELECT number, toString(number) AS s, number * 2 AS d FROM numbers(100000)"
    )
    await page.keyboard.press("Control+Enter")
    await page
      .getByLabel("Statistics")
      .getByText(/^100,000 rows/)
      .waitFor({ timeout: 120_000 })
    const timing = (await page.evaluate(`(() => {
      const entry = performance.getEntriesByType("resource").filter((e) => e.name.includes("/v1/query")).pop()
      return { responseStart: entry.responseStart, firstRow: window.__firstRow, longest: window.__longest }
    })()`)) as { responseStart: number; firstRow: number; longest: number }
    console.log(
      `first rows drawn ${(timing.firstRow - timing.responseStart).toFixed(0)} ms after their bytes arrived (target ≤ 100 ms)`
    )
    console.log(
      `longest main-thread task while 100,000 rows streamed in: ${timing.longest.toFixed(0)} ms (target ≤ 200 ms)`
    )

    await api(sluice, "PUT", "/v1/apps/spl-app?organization=default&cluster=default", { token })
    const seeding = Date.now()
    await seedEvents(sluice)
    console.log(
      `(${EVENTS.toLocaleString("en-US")} events sent by HEC in ${((Date.now() - seeding) / 1000).toFixed(1)} s)`
    )
    const spl = "* | stats count by host"
    const apiStarted = Date.now()
    const direct = await api(
      sluice,
      "POST",
      "/v1/spl/search?organization=default&cluster=default&database=default",
      {
        token,
        body: { spl, earliest: "-25h", include_field_statistics: true }
      }
    )
    const apiMs = Date.now() - apiStarted
    if (direct.status !== 200) throw new Error(direct.text)
    await page.goto(`${sluice.url}/default/default/search?database=default&earliest=-25h`)
    const splEditor = page.getByRole("textbox", { name: "SPL search" })
    await splEditor.click()
    await page.keyboard.press("ControlOrMeta+a")
    await page.keyboard.insertText(spl)
    const pageStarted = Date.now()
    await page.keyboard.press("Control+Enter")
    await page.getByLabel("Search statistics").waitFor({ timeout: 120_000 })
    const pageMs = Date.now() - pageStarted
    // Where the page's time went: its request (sent to last byte) and the rest (decoding, drawing).
    const request = (await page.evaluate(`(() => {
      const entry = performance.getEntriesByType("resource").filter((e) => e.name.includes("/v1/spl/search")).pop()
      return entry === undefined ? 0 : entry.responseEnd - entry.startTime
    })()`)) as number
    console.log(
      `SPL search over ${EVENTS.toLocaleString("en-US")} events: page ${pageMs} ms (its request ${request.toFixed(0)} ms), API ${apiMs} ms, ratio ${(pageMs / apiMs).toFixed(2)} (target ≤ 1.2)`
    )
  } finally {
    await browser.close()
    await sluice.stop()
  }
}
