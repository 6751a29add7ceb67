/**
 * The exploit chain of a read-only key that read the host, stopped at its first step, on
 * the program as a user runs it (`npm start`'s command with its settings in the environment):
 * the file-reading and server-describing functions are refused, the engine's processes
 * and disks cannot be named through typographic quotes, and the engine worker's
 * environment holds none of the service's settings, so even a file read would find no
 * admin password there.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { call, freshDataDir } from "../support/server.js"

const root = path.resolve(import.meta.dirname, "../..")
const PASSWORD = "host-read-admin-password-7f3a"

const started = (env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.async<{ url: string; output: () => string; pid: number }, Error>((resume) => {
      const child = spawn(process.execPath, ["src/start.mjs"], {
        cwd: root,
        env: { ...process.env, SLUICE_PORT: "0", ...env },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString()
        const match = /sluice listening on (http:\/\/\S+)/.exec(output)
        if (match && output.includes("shown once"))
          resume(Effect.succeed({ url: match[1]!, output: () => output, pid: child.pid! }))
      })
      child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
      child.on("exit", (code) => resume(Effect.fail(new Error(`exited ${code}: ${output}`))))
    }).pipe(Effect.timeout("90 seconds")),
    ({ pid }) =>
      Effect.async<void>((resume) => {
        try {
          process.kill(pid, "SIGTERM")
        } catch {
          return resume(Effect.void)
        }
        const poll = setInterval(() => {
          try {
            process.kill(pid, 0)
          } catch {
            clearInterval(poll)
            resume(Effect.void)
          }
        }, 50)
      })
  )

/** Every process below `pid`, read from /proc. */
const descendants = (pid: number): ReadonlyArray<number> => {
  const parents = new Map<number, number>()
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "utf8")
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]))
    } catch {
      // The process ended while we looked.
    }
  }
  const out: Array<number> = []
  const visit = (parent: number) => {
    for (const [child, of] of parents)
      if (of === parent) {
        out.push(child)
        visit(child)
      }
  }
  visit(pid)
  return out
}

const readOr = (file: string) => {
  try {
    return fs.readFileSync(file, "utf8")
  } catch {
    return ""
  }
}

describe("a read-only key and the host", () => {
  it.live(
    "cannot read a file, the server's settings or processes; the engine worker holds no setting",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-host-read")
        const server = yield* started({
          SLUICE_DATA_DIR: dataDir,
          SLUICE_ADMIN_PASSWORD: PASSWORD
        })
        const admin = /admin API key:\s+(rt_\S+)/.exec(server.output())![1]!
        const created = yield* call(server, "POST", "/v1/keys", {
          token: admin,
          body: { name: "reader", permission: "read_only" }
        })
        expect(created.status).toBe(201)
        const reader = (created.json as { key: { token: string } }).key.token

        for (const [sql, status] of [
          ["SELECT file('/proc/self/environ') AS e", 403],
          ["SELECT file('/proc/self/cmdline') AS e", 403],
          [`SELECT file('${dataDir}/secrets.json') AS s`, 403],
          ["SELECT getServerSetting('path') AS p", 403],
          ["SELECT substring(query, 1, 100) FROM \u201Csystem\u201D.processes", 403],
          ["SELECT * FROM \u201Csystem\u201D.disks", 403],
          ["SHOW TABLES FROM \u201Csystem\u201D", 403]
        ] as const) {
          const reply = yield* call(server, "POST", "/v1/query", {
            token: reader,
            body: { sql }
          })
          expect(reply.status, sql).toBe(status)
          expect(reply.json, sql).toMatchObject({ error: "forbidden" })
          expect(reply.text, sql).not.toContain(PASSWORD)
          expect(reply.text, sql).not.toContain(dataDir)
        }
        // What the key may do still works.
        const ok = yield* call(server, "POST", "/v1/query", {
          token: reader,
          body: { sql: "SELECT count() AS n FROM numbers(10)" }
        })
        expect(ok.status).toBe(200)

        // A worker names itself `sluice-engine <cluster>` once it serves a cluster (before
        // that its command line shows its bundle, or its source under tsx).
        const workers = descendants(server.pid).filter((pid) =>
          /sluice-engine|engine-worker|EngineWorker/.test(readOr(`/proc/${pid}/cmdline`))
        )
        expect(workers.length).toBeGreaterThan(0)
        for (const pid of workers) {
          const environ = readOr(`/proc/${pid}/environ`)
          expect(environ).toContain("UV_THREADPOOL_SIZE=")
          expect(environ).not.toContain(PASSWORD)
          expect(environ).not.toContain("SLUICE_")
        }
      }).pipe(Effect.scoped),
    180_000
  )
})
