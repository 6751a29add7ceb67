/**
 * The console's browser tests' fixture: sluice started as `npm start` starts it (one
 * process, `node src/start.mjs`, its first-start credentials read from its
 * output) and Debian's Chromium driven by playwright-core, each once per file.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { chromium } from "playwright-core"
import type { Browser, BrowserContext, Page } from "playwright-core"

const root = path.resolve(import.meta.dirname, "../..")

export interface Sluice {
  readonly url: string
  readonly email: string
  readonly password: string
  readonly adminKey: string
  readonly stop: () => Promise<void>
}

export const startSluice = (env: Record<string, string> = {}): Promise<Sluice> =>
  new Promise((resolve, reject) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-console-"))
    const password = "console-admin-password-5b1e"
    const child: ChildProcess = spawn(process.execPath, ["src/start.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        SLUICE_PORT: "0",
        SLUICE_GRPC_PORT: "0",
        SLUICE_DATA_DIR: dataDir,
        SLUICE_ADMIN_PASSWORD: password,
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done()
        child.once("exit", () => {
          fs.rmSync(dataDir, { recursive: true, force: true })
          done()
        })
        child.kill("SIGTERM")
      })
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const listening = /sluice listening on (http:\/\/\S+)/.exec(output)
      const key = /admin API key:\s+(rt_\S+)/.exec(output)
      const email = /admin email:\s+(\S+)/.exec(output)
      if (listening && key && email)
        resolve({ url: listening[1]!, email: email[1]!, password, adminKey: key[1]!, stop })
    })
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => reject(new Error(`sluice exited ${code}: ${output}`)))
  })

/** Chromium as the machine has it: no download, no network of its own. */
export const startBrowser = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.SLUICE_TEST_CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync"
    ]
  })

/** A page that records every policy violation and page error, for tests to assert none. */
export const openPage = async (
  browser: Browser,
  options: { colorScheme?: "light" | "dark" } = {}
) => {
  const context: BrowserContext = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    colorScheme: options.colorScheme ?? "light"
  })
  const page = await context.newPage()
  const problems: Array<string> = []
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text())
  })
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`))
  return { page, context, problems }
}

/** Where the views' pictures go: the run's temp directory, unless told elsewhere. */
export const screenshot = async (page: Page, name: string) => {
  const dir =
    process.env.SLUICE_CONSOLE_SCREENSHOTS ?? path.join(os.tmpdir(), "console-screenshots")
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, `${name}.png`)
  await page.screenshot({ path: file })
  return file
}

export const signIn = async (page: Page, sluice: Sluice, password = sluice.password) => {
  await page.getByLabel("Email").fill(sluice.email)
  await page.getByLabel("Password").fill(password)
  await page.getByRole("button", { name: "Sign in" }).click()
}

export const api = async (
  sluice: Sluice,
  method: string,
  pathAndQuery: string,
  options: {
    token?: string
    body?: unknown
    raw?: string
    authorization?: string
    headers?: Record<string, string>
  } = {}
) => {
  const headers: Record<string, string> = {
    ...options.headers,
    authorization: options.authorization ?? `Bearer ${options.token ?? sluice.adminKey}`
  }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(sluice.url + pathAndQuery, {
    method,
    headers,
    ...(options.body !== undefined
      ? { body: JSON.stringify(options.body) }
      : options.raw !== undefined
        ? { body: options.raw }
        : {})
  })
  return { status: response.status, headers: response.headers, text: await response.text() }
}

/** A session token of `email`, as the API signs one in. */
export const sessionOf = async (sluice: Sluice, email: string, password: string) => {
  const reply = await api(sluice, "POST", "/v1/auth/login", { body: { email, password } })
  return (JSON.parse(reply.text) as { token: string }).token
}
