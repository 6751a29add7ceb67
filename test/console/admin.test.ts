/**
 * The console's request logs and administration in Chromium against sluice as
 * `npm start` runs it: logs filtered by source, a key created and used, a cluster paused
 * and resumed through its buttons.
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

beforeAll(async () => {
  // Cluster metrics sampled every second, so that their charts have points at once.
  ;[sluice, browser] = await Promise.all([
    startSluice({ SLUICE_METRICS_INTERVAL_SECONDS: "1" }),
    startBrowser()
  ])
  ;({ page, problems } = await openPage(browser))
  // Requests of another client, which the filter must leave out.
  expect((await api(sluice, "GET", "/v1/tables")).status).toBe(200)
  await page.goto(`${sluice.url}/default/default/logs?database=default`)
  await signIn(page, sluice)
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await sluice?.stop()
})

describe("the logs view", () => {
  it("filters the request log by source, and shows an entry's every field", async () => {
    const requests = page.getByRole("table", { name: "Requests" })
    await poll(() => requests.locator("tbody tr").count()).toBeGreaterThan(0)
    // The request log is written after each response: the filter is applied once the
    // console's own requests are listed, or it would rightly show nothing.
    const uiLogged = async () => {
      const logs = await api(sluice, "GET", "/v1/logs?sources=ui&limit=1")
      return (JSON.parse(logs.text) as { logs: ReadonlyArray<unknown> }).logs.length
    }
    await poll(uiLogged).toBeGreaterThan(0)
    const asked = page.waitForRequest(
      (request) => request.url().includes("/v1/logs") && request.url().includes("sources=ui")
    )
    await page.getByRole("checkbox", { name: "ui" }).check()
    await page.getByRole("button", { name: "Apply" }).click()
    await asked
    await poll(
      async () => new Set(await requests.locator("tbody tr td:nth-child(6)").allTextContents())
    ).toEqual(new Set(["ui"]))
    await requests.locator("tbody tr").first().getByRole("button").click()
    const drawer = page.getByRole("complementary", { name: "Request details" })
    await poll(() =>
      drawer.locator("tr", { hasText: "client_version" }).locator("td").textContent()
    ).toBe("0.1.0")
    await screenshot(page, "logs")
  })

  it("filters by a class of statuses (4xx), and says which value it cannot read", async () => {
    expect((await api(sluice, "GET", "/v1/tables/nowhere")).status).toBe(404)
    // Written to the request log after the answer: applied once it is there.
    await poll(async () => {
      const logs = await api(sluice, "GET", "/v1/logs?paths=/v1/tables/nowhere")
      return (JSON.parse(logs.text) as { logs: ReadonlyArray<unknown> }).logs.length
    }).toBe(1)
    await page.getByRole("button", { name: "Close" }).click()
    await page.getByRole("checkbox", { name: "ui" }).uncheck()
    const statuses = page.getByLabel("Statuses")
    await statuses.fill("4xx")
    await page.getByRole("button", { name: "Apply" }).click()
    const requests = page.getByRole("table", { name: "Requests" })
    await poll(
      async () => new Set(await requests.locator("tbody tr td:nth-child(4)").allTextContents())
    ).toEqual(new Set(["404"]))
    await statuses.fill("4zz")
    await page.getByRole("button", { name: "Apply" }).click()
    await poll(() => page.getByRole("alert").first().textContent()).toContain(
      'Statuses: "4zz" is not a status code or class (404, 5xx).'
    )
    await screenshot(page, "logs-statuses")
  })
})

describe("command-line login", () => {
  it("approves a device login in the console, and the command line's poll gets the token", async () => {
    const started = JSON.parse(
      (
        await api(sluice, "POST", "/v1/auth/cli/device/start", {
          body: {},
          headers: { "x-service-client": "rtree", "x-service-client-version": "0.6.5" }
        })
      ).text
    ) as { device_code: string; user_code: string }
    const tokenPoll = () =>
      api(sluice, "POST", "/v1/auth/cli/device/token", {
        body: { device_code: started.device_code }
      })
    expect((await tokenPoll()).status).toBe(428)
    // Signed out, the approval page says why it asks for a sign-in, then shows the login.
    const signedOut = await openPage(browser)
    await signedOut.page.goto(`${sluice.url}/device?user_code=${started.user_code}`)
    await poll(() => signedOut.page.locator("form.signin").textContent()).toContain(
      "A command-line login is waiting for your approval: sign in to see it."
    )
    await signIn(signedOut.page, sluice)
    await poll(() => signedOut.page.getByLabel("Login code").textContent()).toBe(started.user_code)
    await signedOut.context.close()
    await page.goto(`${sluice.url}/device?user_code=${started.user_code}`)
    await poll(() => page.getByLabel("Login code").textContent()).toBe(started.user_code)
    expect(await page.getByLabel("Requesting client").textContent()).toMatch(/127\.0\.0\.1|::1/)
    // Which program asks, as its start request named itself, and when it asked.
    expect(await page.getByLabel("Requesting program").textContent()).toBe("rtree 0.6.5")
    expect(await page.getByLabel("Started").textContent()).toMatch(/\d/)
    await screenshot(page, "device-login")
    await page.getByRole("button", { name: "Approve" }).click()
    await poll(() => page.getByRole("status").textContent()).toMatch(/^Approved/)
    const granted = await tokenPoll()
    expect(granted.status, granted.text).toBe(200)
    const { token, email } = JSON.parse(granted.text) as { token: string; email: string }
    expect(email).toBe(sluice.email)
    expect((await api(sluice, "GET", "/v1/organizations", { token })).status).toBe(200)
    await page.goto(`${sluice.url}/default/default/admin?database=default`)
  })
})

describe("administration", () => {
  it("creates a key, shows its token once, and the token works until deleted", async () => {
    await page.getByRole("link", { name: "Administration" }).click()
    await page.getByLabel("Key name").fill("console-made")
    await page.getByLabel("Permission").selectOption("read_only")
    await page.getByRole("button", { name: "Create key" }).click()
    const token = (await page.getByLabel("New key token").textContent()) ?? ""
    expect(token).toMatch(/^rt_/)
    const used = await api(sluice, "POST", "/v1/query", {
      token,
      body: { sql: "SELECT 1 AS one", format: "JSONEachRow" }
    })
    expect(used.text.trim()).toBe('{"one":1}')
    await poll(() =>
      page.getByRole("table", { name: "Keys" }).getByText("console-made").count()
    ).toBe(1)
    await screenshot(page, "admin-keys")
    await page.getByRole("button", { name: "Delete key console-made" }).click()
    await poll(() =>
      page.getByRole("table", { name: "Keys" }).getByText("console-made").count()
    ).toBe(0)
    expect(
      (await api(sluice, "POST", "/v1/query", { token, body: { sql: "SELECT 1" } })).status
    ).toBe(401)
  })

  it("pauses and resumes a cluster through the buttons its flags enable", async () => {
    await page.getByRole("tab", { name: "Clusters" }).click()
    const row = page.getByRole("row", { name: "Cluster default" })
    const pause = row.getByRole("button", { name: "Pause" })
    const resume = row.getByRole("button", { name: "Resume" })
    await poll(() => pause.isEnabled()).toBe(true)
    expect(await resume.isEnabled()).toBe(false)
    await pause.click()
    await poll(() => resume.isEnabled()).toBe(true)
    expect(await pause.isEnabled()).toBe(false)
    const session = await sessionOf(sluice, sluice.email, sluice.password)
    const paused = JSON.parse(
      (await api(sluice, "GET", "/v1/clusters?organization=default", { token: session })).text
    ) as {
      clusters: Array<{ can_pause: boolean; can_resume: boolean }>
    }
    expect(paused.clusters[0]).toMatchObject({ can_pause: false, can_resume: true })
    await screenshot(page, "admin-clusters")
    await resume.click()
    await poll(() => pause.isEnabled()).toBe(true)
    const resumed = JSON.parse(
      (await api(sluice, "GET", "/v1/clusters?organization=default", { token: session })).text
    ) as {
      clusters: Array<{ status: { ready: boolean } }>
    }
    expect(resumed.clusters[0]?.status.ready).toBe(true)
    expect(problems).toEqual([])
  })

  it("creates a cluster with replicas, autoscaling bounds and idle timeout, edits it, and charts metrics", async () => {
    const form = page.getByRole("form", { name: "New cluster" })
    await form.getByLabel("Name").fill("analytics")
    await form.getByRole("combobox", { name: /^Size/ }).selectOption({ label: "2 CPU / 8 GiB" })
    await form.getByLabel("Replicas").fill("1")
    await form.getByLabel("Autoscaling from").selectOption({ label: "1 CPU / 4 GiB" })
    await form.getByLabel("Autoscaling up to").selectOption({ label: "4 CPU / 16 GiB" })
    await form.getByLabel("Idle timeout (minutes, 0 = never)").fill("30")
    // Customer-owned storage is checked before it is used: here no role can be assumed.
    await form.getByLabel("Own S3 storage (byo_s3)").check()
    await form.getByLabel("Data bucket").fill("acme-data")
    await form.getByLabel("Data path").fill("sluice/data")
    await form.getByLabel("Backups bucket").fill("acme-backups")
    await form.getByLabel("Backups path").fill("sluice/backups")
    await form.getByLabel("Role ARN").fill("arn:aws:iam::123456789012:role/sluice")
    await form.getByRole("button", { name: "Verify storage" }).click()
    await poll(() => form.getByRole("status").textContent()).toMatch(
      /arn:aws:iam::123456789012:role\/sluice.*external id sluice-/s
    )
    await screenshot(page, "admin-clusters-new")
    await form.getByLabel("Own S3 storage (byo_s3)").uncheck()
    await form.getByRole("button", { name: "Create cluster" }).click()
    await poll(() => page.getByRole("row", { name: "Cluster analytics" }).count()).toBe(1)
    const session = await sessionOf(sluice, sluice.email, sluice.password)
    const listed = async () =>
      (
        JSON.parse(
          (await api(sluice, "GET", "/v1/clusters?organization=default", { token: session })).text
        ) as {
          clusters: Array<{
            id: string
            name: string
            idle_timeout_minutes: number
            resources: {
              replicas: number
              cpu_cores_per_replica: number
              minimum_size: { cpu_cores: number }
              maximum_size: { cpu_cores: number }
            } | null
          }>
        }
      ).clusters
    // Resources are known once it is provisioned; the list follows it until then.
    await poll(async () => (await listed()).find((c) => c.name === "analytics")).toMatchObject({
      idle_timeout_minutes: 30,
      resources: {
        replicas: 1,
        cpu_cores_per_replica: 2,
        minimum_size: { cpu_cores: 1 },
        maximum_size: { cpu_cores: 4 }
      }
    })
    const created = (await listed()).find((c) => c.name === "analytics")

    await page
      .getByRole("row", { name: "Cluster analytics" })
      .getByRole("button", { name: "Edit" })
      .click()
    const edit = page.getByRole("form", { name: "Edit cluster analytics" })
    await edit.getByLabel("Name").fill("reporting")
    await edit.getByLabel("Idle timeout (minutes, 0 = never)").fill("0")
    await edit.getByRole("button", { name: "Save" }).click()
    await poll(async () => (await listed()).find((c) => c.id === created!.id)).toMatchObject({
      name: "reporting",
      idle_timeout_minutes: 0
    })
    await poll(() => page.getByRole("row", { name: "Cluster reporting" }).count()).toBe(1)

    // The default cluster's four metrics: sampled every second, drawn once they have points.
    const metrics = page.getByRole("region", { name: "Metrics of default" })
    await metrics.getByLabel("Metrics range").selectOption({ label: "last 6h" })
    await poll(async () => {
      await metrics.getByRole("button", { name: "Refresh" }).click()
      return metrics.locator(".uplot canvas").count()
    }).toBe(4)
    for (const label of ["Read queries", "Write queries", "CPU cores", "Memory"])
      expect(await metrics.getByRole("img", { name: `${label} chart` }).count()).toBe(1)
    await screenshot(page, "admin-clusters-metrics")
    await api(sluice, "DELETE", `/v1/clusters/${created!.id}?organization=default`, {
      token: session
    })
    expect(problems).toEqual([])
  })
})
