/**
 * `npm test`: the format and type check and every vitest project of `vitest.config.ts`,
 * as jobs on two lanes. Run one after another, the machine's two cores sat idle for a
 * fifth of the run: the end of each project waits for its last file, and much of a test
 * waits on a server, an engine worker or a browser. Two lanes fill that time.
 *
 * Each job's output is printed whole when it ends (never interleaved with the other
 * lane's), a failed job's at the end, just above the line per job that closes the run; any
 * failure makes the exit status 1.
 */
import { spawn } from "node:child_process"
import { constants } from "node:os"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "..")
const vitest = path.join(root, "node_modules/vitest/vitest.mjs")
const config = path.join(root, "test/vitest.config.ts")

interface Step {
  readonly command: string
  readonly args: ReadonlyArray<string>
}

interface Job {
  readonly name: string
  /** Run in order, the job stopping at the first that fails. */
  readonly steps: ReadonlyArray<Step>
}

const project = (name: string, ...flags: ReadonlyArray<string>): Step => ({
  command: process.execPath,
  args: [vitest, "run", "--config", config, "--project", name, ...flags]
})

/**
 * The lanes take jobs in this order, each the next the first free lane takes: `shared`
 * (half of the suite) on one lane, the rest on the other, the check first for a quick
 * answer. `external` and `nodes` share one PostgreSQL server, whose test databases
 * `external` drops at its start and end: one job, so never at once.
 */
const jobs: ReadonlyArray<Job> = [
  { name: "shared", steps: [project("shared", "--no-isolate")] },
  { name: "check", steps: [{ command: "npm", args: ["run", "--silent", "check"] }] },
  { name: "clients", steps: [project("clients", "--no-isolate")] },
  { name: "server", steps: [project("server", "--no-isolate")] },
  {
    name: "external, nodes",
    steps: [
      project("external", "--no-isolate"),
      project("nodes", "--no-isolate", "--passWithNoTests")
    ]
  },
  { name: "isolated", steps: [project("isolated")] }
]

const LANES = 2

interface Outcome {
  readonly name: string
  readonly passed: boolean
  readonly seconds: number
  readonly output: Buffer
}

/** Process groups of the steps running now, stopped with the run. */
const processGroups = new Set<number>()

/** The jobs running now, for the progress line. */
const runningJobs = new Set<string>()

const runStep = (step: Step, output: Array<Buffer>) =>
  new Promise<boolean>((resolve) => {
    const child = spawn(step.command, step.args, {
      cwd: root,
      // A group of its own, so that an interrupted run stops the job's processes too.
      detached: true,
      // No FORCE_COLOR for colours: the suites' own child processes would inherit it.
      stdio: ["ignore", "pipe", "pipe"]
    })
    const pid = child.pid
    if (pid !== undefined) processGroups.add(pid)
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk))
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk))
    child.once("error", (error) => {
      output.push(Buffer.from(`${error.message}\n`))
      resolve(false)
    })
    child.once("close", (code) => {
      if (pid !== undefined) processGroups.delete(pid)
      resolve(code === 0)
    })
  })

const runJob = async (job: Job): Promise<Outcome> => {
  const started = performance.now()
  const output: Array<Buffer> = []
  let passed = true
  runningJobs.add(job.name)
  for (const step of job.steps) {
    passed = await runStep(step, output)
    if (!passed) break
  }
  runningJobs.delete(job.name)
  const seconds = (performance.now() - started) / 1000
  clearProgress()
  const heading = `\n── ${job.name}: ${passed ? "passed" : "FAILED"} in ${seconds.toFixed(0)} s ──\n`
  // A failure's report waits for the end of the run, where it is not scrolled away.
  process.stdout.write(passed ? heading : `${heading}(its report follows at the end)\n`)
  const report = Buffer.concat(output)
  if (passed) process.stdout.write(report)
  return { name: job.name, passed, seconds, output: report }
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.once(signal, () => {
    for (const pid of processGroups) {
      try {
        process.kill(-pid, signal)
      } catch {
        // already gone
      }
    }
    // As a shell reports a process a signal ended: 130 for Ctrl-C, 143 for SIGTERM.
    process.exit(128 + constants.signals[signal])
  })

const started = performance.now()

// In a terminal, one line redrawn in place says what runs and how far it got.
const tty = process.stdout.isTTY === true
const clearProgress = () => {
  if (tty) process.stdout.write("\r\u001b[K")
}
const ticker = tty
  ? setInterval(() => {
      const elapsed = ((performance.now() - started) / 1000).toFixed(0)
      process.stdout.write(`\r\u001b[K${elapsed} s, running: ${[...runningJobs].join(", ")}`)
    }, 1000)
  : undefined

const queue = [...jobs]
const outcomes: Array<Outcome> = []
await Promise.all(
  Array.from({ length: LANES }, async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift())
      outcomes.push(await runJob(job))
  })
)
clearInterval(ticker)
clearProgress()
const failed = outcomes.filter((o) => !o.passed)
for (const o of failed) {
  process.stdout.write(`\n── ${o.name}: FAILED ──\n`)
  process.stdout.write(o.output)
}
process.stdout.write("\n")
for (const o of outcomes)
  process.stdout.write(
    `${o.passed ? "passed" : "FAILED"}  ${o.name.padEnd(16)} ${o.seconds.toFixed(0).padStart(4)} s\n`
  )
process.stdout.write(
  `${failed.length === 0 ? "All passed" : `${failed.length} of ${outcomes.length} failed`} in ` +
    `${((performance.now() - started) / 1000).toFixed(0)} s\n`
)
process.exitCode = failed.length === 0 ? 0 : 1
