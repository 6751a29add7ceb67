/**
 * The `sluice` command line against one in-process server, in one run:
 * - start to first row of `sluice query` against `curl` on the same query plus Node's own
 *   start (`node -e 0`), fastest of `BENCH_CLI_ROUNDS` (default 10) each; target ≤ 1.5×;
 * - `sluice insert` of 1 M records from NDJSON files against `POST /v1/tables` with the
 *   same batches sent by this script, rows/s; target ≥ 0.9×;
 * - peak RSS of `sluice query` streaming 10 M rows into a pipe; target < 150 MB.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect } from "effect"
import { batchesOf } from "../../src/cli/InsertSource.js"
import { adminKeyOf, freshDataDir, startServer } from "../support/server.js"

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? "10")
const root = path.resolve(import.meta.dirname, "../..")
const bin = path.join(root, "src/cli/sluice.cjs")
const SQL = "SELECT number FROM numbers(10)"

/** Milliseconds from spawn to the first byte on stdout (or to exit when it writes none). */
const firstByte = (
  command: string,
  args: ReadonlyArray<string>,
  env: Record<string, string> = {}
) =>
  new Promise<number>((resolve, reject) => {
    const started = performance.now()
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "ignore"]
    })
    let at: number | undefined
    child.stdout.once("data", () => (at = performance.now()))
    child.stdout.resume()
    child.on("error", reject)
    child.on("close", (code) =>
      code === 0
        ? resolve((at ?? performance.now()) - started)
        : reject(new Error(`${command} exited ${code}`))
    )
  })

/** Runs the CLI to its end: never `spawnSync`, which would stall the server in this process. */
const runCli = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "ignore", "pipe"]
    })
    let stderr = ""
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(stderr))))
  })

const fastest = async (run: () => Promise<number>) => {
  let best = Infinity
  for (let i = 0; i < ROUNDS; i++) best = Math.min(best, await run())
  return best
}

const peakRss = (args: ReadonlyArray<string>, env: Record<string, string>) =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "ignore"]
    })
    let peak = 0
    const sample = setInterval(() => {
      try {
        const status = fs.readFileSync(`/proc/${child.pid}/status`, "utf8")
        peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))
      } catch {
        // Exited between samples.
      }
    }, 20)
    child.stdout.resume()
    child.on("close", () => {
      clearInterval(sample)
      resolve(peak / 1024)
    })
  })

export const cli = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const server = yield* startServer(freshDataDir("bench-cli"))
        const key = adminKeyOf(server)
        const env = {
          SLUICE_URL: server.url,
          SLUICE_TOKEN: key,
          XDG_CONFIG_HOME: fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-"))
        }
        yield* Effect.promise(async () => {
          await runCli(["version"], env) // builds the bundle
          await firstByte(process.execPath, [bin, "query", SQL], env) // and its code cache
          const node = await fastest(() => firstByte(process.execPath, ["-e", "0"]))
          const curlArgs = [
            "-s",
            "-X",
            "POST",
            `${server.url}/v1/query`,
            "-H",
            `authorization: Bearer ${key}`,
            "-H",
            "content-type: application/json",
            "-d",
            JSON.stringify({ sql: SQL, format: "TSV" })
          ]
          const curl = await fastest(() => firstByte("curl", curlArgs))
          const sluice = await fastest(() => firstByte(process.execPath, [bin, "query", SQL], env))
          const ratio = sluice / (curl + node)
          console.log(
            `query start to first row: sluice ${sluice.toFixed(0)} ms, curl ${curl.toFixed(0)} ms + node ${node.toFixed(0)} ms: ${ratio.toFixed(2)}× (target ≤ 1.5×)`
          )

          const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-cli-files-"))
          const files = [0, 1, 2, 3].map((f) => {
            const file = path.join(dir, `part-${f}.ndjson`)
            const lines: Array<string> = []
            for (let i = 0; i < 250_000; i++)
              lines.push(
                JSON.stringify({
                  id: f * 250_000 + i,
                  host: `web-${i % 17}`,
                  status: 200 + (i % 5),
                  ms: i % 997
                })
              )
            fs.writeFileSync(file, `${lines.join("\n")}\n`)
            return file
          })
          const batchBytes = 4 * 1024 * 1024
          let started = performance.now()
          let rows = 0
          for (const file of files)
            for await (const batch of batchesOf(fs.createReadStream(file), batchBytes)) {
              const response = await fetch(`${server.url}/v1/tables/direct`, {
                method: "POST",
                headers: { authorization: `Bearer ${key}`, "content-type": "application/x-ndjson" },
                body: batch.body
              })
              if (!response.ok) throw new Error(await response.text())
              rows += batch.rows
            }
          const direct = rows / ((performance.now() - started) / 1000)
          started = performance.now()
          await runCli(["insert", "viacli", ...files], env)
          const viaCli = 1_000_000 / ((performance.now() - started) / 1000)
          console.log(
            `insert 1 M records: sluice ${viaCli.toFixed(0)} rows/s, direct POST ${direct.toFixed(0)} rows/s: ${(viaCli / direct).toFixed(2)}× (target ≥ 0.9×)`
          )
          fs.rmSync(dir, { recursive: true, force: true })

          const rss = await peakRss(["query", "SELECT number FROM numbers(10000000)"], env)
          console.log(`10 M-row query into a pipe: peak RSS ${rss.toFixed(0)} MB (target < 150 MB)`)
        })
      })
    )
  )
