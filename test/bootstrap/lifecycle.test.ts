/**
 * The program as a user runs it (`node src/start.mjs`, what `npm start` runs: one process, so a signal reaches the service itself rather than a tsx parent that relays it and SIGKILLs a child slow to answer within 30 ms): first start
 * prints the bootstrap secrets once, the credentials work, SIGTERM lets an in-flight
 * request finish and exits cleanly, and the next start finds everything again and
 * prints no secret. Bad settings, unusable data directories and ports in use stop the
 * start with one line.
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import { request } from "node:http"
import * as fs from "node:fs"
import { connect, createServer } from "node:net"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, freshDataDir } from "../support/server.js"

const root = path.resolve(import.meta.dirname, "../..")

interface Started {
  readonly child: ChildProcess
  readonly url: string
  readonly output: () => string
}

const start = (env: Record<string, string>) =>
  Effect.async<Started, Error>((resume) => {
    const child = spawn(process.execPath, ["src/start.mjs"], {
      cwd: root,
      env: { ...process.env, SLUICE_PORT: "0", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /sluice listening on (http:\/\/\S+)/.exec(output)
      // Wait for the whole announcement (it ends with the key line on a first start).
      if (match && (!output.includes("First start") || output.includes("shown once"))) {
        resume(Effect.succeed({ child, url: match[1]!, output: () => output }))
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("exit", (code) => resume(Effect.fail(new Error(`exited ${code}: ${output}`))))
  }).pipe(Effect.timeout("60 seconds"))

const exitOf = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null) return resume(Effect.succeed(child.exitCode))
    child.on("exit", (code) => resume(Effect.succeed(code)))
  })

/** Resolves once a new connection to `url` is refused (looking up to 250 times). */
const refusingConnections = async (url: string) => {
  const { hostname, port } = new URL(url)
  for (let attempt = 0; attempt < 250; attempt++) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname)
      socket.on("connect", () => {
        socket.destroy()
        resolve(false)
      })
      socket.on("error", () => resolve(true))
    })
    if (refused) return
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`${url} still accepts connections after 250 looks`)
}

const run = (env: Record<string, string>) =>
  Effect.async<{ code: number | null; output: string }>((resume) => {
    const child = spawn(process.execPath, ["src/start.mjs"], {
      cwd: root,
      env: { ...process.env, ...env }
    })
    let output = ""
    child.stdout.on("data", (c: Buffer) => (output += c.toString()))
    child.stderr.on("data", (c: Buffer) => (output += c.toString()))
    child.on("exit", (code) => resume(Effect.succeed({ code, output })))
  })

/** A loopback port another server holds while the scope is open. */
const heldPort = Effect.acquireRelease(
  Effect.async<{ readonly port: number; readonly close: () => void }>((resume) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resume(Effect.succeed({ port, close: () => server.close() }))
    })
  }),
  (held) => Effect.sync(held.close)
)

describe("sluice as a process", () => {
  it.live(
    "first start, credentials, graceful SIGTERM, restart without secrets",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-main")
        const first = yield* start({ SLUICE_DATA_DIR: dataDir })
        const out = first.output()
        const password = /admin password: (\S+)/.exec(out)?.[1]
        const key = /admin API key:\s+(rt_\S+)/.exec(out)?.[1]
        expect(out).toContain("admin email:    admin@localhost")
        expect(password).toBeDefined()
        expect(key).toBeDefined()

        const health = yield* call(first, "GET", "/health")
        expect(health.json).toEqual({ status: "ok" })
        const login = yield* call(first, "POST", "/v1/auth/login", {
          body: { email: "admin@localhost", password }
        })
        expect(login.status).toBe(200)
        expect((yield* call(first, "GET", "/v1/keys", { token: key! })).status).toBe(200)

        // An in-flight request: the server has its headers (it asks for the body with a
        // 100 Continue) and half the body when SIGTERM comes; the rest follows once the
        // server has stopped accepting connections, so it arrives during the shutdown.
        const body = JSON.stringify({ email: "admin@localhost", password })
        const inflight = Effect.async<number>((resume) => {
          const req = request(`${first.url}/v1/auth/login`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "content-length": body.length,
              expect: "100-continue"
            }
          })
          req.on("continue", () => {
            req.write(body.slice(0, 10))
            first.child.kill("SIGTERM")
            refusingConnections(first.url).then(
              () => req.end(body.slice(10)),
              (error: unknown) => {
                req.destroy()
                resume(Effect.die(error))
              }
            )
          })
          req.on("response", (res) => {
            res.resume()
            res.on("end", () => resume(Effect.succeed(res.statusCode ?? 0)))
          })
          req.on("error", () => resume(Effect.succeed(-1)))
          req.flushHeaders()
        })
        const [status, code] = yield* Effect.all([inflight, exitOf(first.child)], {
          concurrency: 2
        })
        expect(status).toBe(200)
        expect(code).toBe(0)

        const second = yield* start({ SLUICE_DATA_DIR: dataDir })
        expect(second.output()).not.toContain("admin password")
        expect(second.output()).not.toContain("rt_")
        expect((yield* call(second, "GET", "/v1/keys", { token: key! })).status).toBe(200)
        const orgs = yield* call(second, "POST", "/v1/auth/login", {
          body: { email: "admin@localhost", password }
        })
        expect(orgs.status).toBe(200)
        second.child.kill("SIGINT")
        expect(yield* exitOf(second.child)).toBe(0)
      }),
    120_000
  )

  it.scopedLive(
    "a port in use stops the start with one line naming it, after the first start's secrets",
    () =>
      Effect.gen(function* () {
        const { port } = yield* heldPort
        const dataDir = freshDataDir()
        const http = yield* run({
          SLUICE_DATA_DIR: dataDir,
          SLUICE_PORT: String(port),
          SLUICE_GRPC_PORT: "0"
        })
        expect(http.code).toBe(1)
        expect(http.output.trim().split("\n").at(-1)).toBe(
          `sluice: cannot start: HTTP cannot listen on 127.0.0.1:${port} (SLUICE_PORT): ` +
            "the port is in use by another process"
        )
        // The bootstrap is done and its secrets exist only hashed: this was their one showing.
        const key = /admin API key:\s+(rt_\S+)/.exec(http.output)?.[1]
        expect(key).toBeDefined()

        const grpc = yield* run({
          SLUICE_DATA_DIR: freshDataDir(),
          SLUICE_PORT: "0",
          SLUICE_GRPC_PORT: String(port)
        })
        expect(grpc.code).toBe(1)
        expect(grpc.output.trim().split("\n").at(-1)).toBe(
          `sluice: cannot start: OTLP/gRPC cannot listen on 127.0.0.1:${port} (SLUICE_GRPC_PORT): ` +
            "the port is in use by another process"
        )

        const next = yield* start({ SLUICE_DATA_DIR: dataDir, SLUICE_GRPC_PORT: "0" })
        expect(next.output()).not.toContain("admin API key")
        expect((yield* call(next, "GET", "/v1/keys", { token: key! })).status).toBe(200)
        next.child.kill("SIGINT")
        expect(yield* exitOf(next.child)).toBe(0)
      }),
    120_000
  )

  it.live(
    "a bad setting stops the start with one line naming it",
    () =>
      Effect.gen(function* () {
        const result = yield* run({ SLUICE_DATA_DIR: freshDataDir(), SLUICE_PORT: "eighty" })
        expect(result.code).toBe(1)
        const lines = result.output.trim().split("\n")
        expect(lines).toHaveLength(1)
        expect(lines[0]).toMatch(/^sluice: cannot start: invalid configuration: SLUICE_PORT: /)
        const weak = yield* run({ SLUICE_DATA_DIR: freshDataDir(), SLUICE_ADMIN_PASSWORD: "short" })
        expect(weak.code).toBe(1)
        expect(weak.output).toContain("SLUICE_ADMIN_PASSWORD: expected at least 12 characters")
        expect(weak.output).not.toContain("short")
      }),
    60_000
  )

  it.live(
    "a data directory that cannot be used stops the start with one line naming it",
    () =>
      Effect.gen(function* () {
        const file = path.join(freshDataDir(), "a-file")
        fs.writeFileSync(file, "not a directory")
        for (const [dataDir, reason] of [
          [file, "a file is in its place"],
          [path.join(file, "data"), "a file is in its path"]
        ] as const) {
          const result = yield* run({ SLUICE_DATA_DIR: dataDir, SLUICE_PORT: "0" })
          expect(result.code).toBe(1)
          expect(result.output.trim().split("\n")).toEqual([
            `sluice: cannot start: SLUICE_DATA_DIR '${dataDir}' cannot be used: ${reason}`
          ])
        }
      }),
    60_000
  )
})
