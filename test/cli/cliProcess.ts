/**
 * The CLI as a user runs it (`node src/cli/sluice.cjs`, the package's `bin`) against a
 * server started as `npm start` starts it (`node src/start.mjs`), one per test file.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const root = path.resolve(import.meta.dirname, "../..")
export const bin = path.join(root, "src/cli/sluice.cjs")
export const PASSWORD = "cli-admin-password-4d7e1"
export const EMAIL = "admin@localhost"

export interface Server {
  readonly url: string
  readonly adminKey: string
  readonly dataDir: string
  readonly stop: () => Promise<void>
}

const tempDir = (label: string) => fs.mkdtempSync(path.join(os.tmpdir(), `${label}-`))

export const startServer = (env: Record<string, string> = {}) =>
  new Promise<Server>((resolve, reject) => {
    const dataDir = tempDir("sluice-cli-server")
    const child = spawn(process.execPath, ["src/start.mjs"], {
      cwd: root,
      env: {
        ...process.env,
        SLUICE_PORT: "0",
        SLUICE_GRPC_PORT: "0",
        SLUICE_DATA_DIR: dataDir,
        SLUICE_ADMIN_PASSWORD: PASSWORD,
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
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString()
      const url = /sluice listening on (http:\/\/\S+)/.exec(output)?.[1]
      const adminKey = /admin API key:\s+(rt_\S+)/.exec(output)?.[1]
      if (url !== undefined && adminKey !== undefined) resolve({ url, adminKey, dataDir, stop })
    })
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => reject(new Error(`server exited ${code}: ${output}`)))
  })

export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** A config home of its own: profiles never leak between tests or into the user's. */
export const configHome = () => tempDir("sluice-cli-config")

export interface CliOptions {
  readonly env?: Record<string, string>
  readonly stdin?: string | Buffer
  readonly config?: string
}

export const spawnCli = (args: ReadonlyArray<string>, options: CliOptions = {}): ChildProcess =>
  spawn(process.execPath, [bin, ...args], {
    cwd: root,
    env: {
      ...process.env,
      XDG_CONFIG_HOME: options.config ?? configHome(),
      NO_COLOR: "1",
      SLUICE_PROFILE: "",
      SLUICE_TOKEN: "",
      SLUICE_URL: "",
      ...options.env
    },
    stdio: ["pipe", "pipe", "pipe"]
  })

export const collect = (child: ChildProcess, stdin?: string | Buffer) =>
  new Promise<Run>((resolve) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
    child.stdin!.end(stdin)
  })

export const cli = (args: ReadonlyArray<string>, options: CliOptions = {}) =>
  collect(spawnCli(args, options), options.stdin)

/** Resolves once `predicate` holds for what the stream has written so far. */
export const waitFor = (stream: NodeJS.ReadableStream, predicate: (text: string) => boolean) =>
  new Promise<string>((resolve, reject) => {
    let text = ""
    const onData = (chunk: Buffer) => {
      text += chunk.toString()
      if (predicate(text)) {
        stream.off("data", onData)
        resolve(text)
      }
    }
    stream.on("data", onData)
    stream.once("end", () => reject(new Error(`ended before the condition: ${text}`)))
  })

/** Failures are one line of message (and one of hint), never a stack trace. */
export const expectCleanFailure = (run: Run) => {
  const lines = run.stderr.trim().split("\n")
  if (!/^error: /.test(lines[0] ?? "") || lines.length > 2 || /\n\s+at /.test(run.stderr))
    throw new Error(`not a clean failure: ${JSON.stringify(run)}`)
}

export const api = async (
  server: Server,
  method: string,
  route: string,
  token: string,
  body?: unknown
) => {
  const response = await fetch(server.url + route, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return {
    status: response.status,
    text,
    json: text === "" ? undefined : (JSON.parse(text) as unknown)
  }
}
