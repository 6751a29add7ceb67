/**
 * `npm test`: the format check, the typecheck and the six Vitest projects
 * (`test/vitest.config.ts`), in two lanes side by side. Run one after another they left
 * a sixth of two cores idle (the files wait on their servers, engine workers, browsers and
 * CLI processes, and each project ends on its longest file): the shared project, the
 * largest, runs alone in the first lane and the check and the other projects in the
 * second. A lane stops at its first failure; the other goes on. The first lane prints as
 * it runs; the second's steps print whole as each ends, so their lines never interleave.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "..")
const vitest = (project, ...flags) => ({
  name: project,
  command: process.execPath,
  args: [
    "node_modules/vitest/vitest.mjs",
    "run",
    "--config",
    "test/vitest.config.ts",
    "--project",
    project,
    ...flags
  ]
})
// Every project but `isolated` shares its processes between files (see the config).
const lanes = [
  { live: true, steps: [vitest("shared", "--no-isolate")] },
  {
    live: false,
    steps: [
      { name: "check", command: "npm", args: ["run", "--silent", "check"] },
      vitest("isolated"),
      vitest("cli", "--no-isolate"),
      vitest("external", "--no-isolate"),
      vitest("nodes", "--no-isolate", "--passWithNoTests"),
      vitest("server", "--no-isolate")
    ]
  }
]

const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1)

const run = (step, live) =>
  new Promise((resolve) => {
    const started = performance.now()
    const child = spawn(step.command, step.args, {
      cwd: root,
      stdio: live ? "inherit" : ["ignore", "pipe", "pipe"]
    })
    const output = []
    child.stdout?.on("data", (chunk) => output.push(chunk))
    child.stderr?.on("data", (chunk) => output.push(chunk))
    child.on("close", (code, signal) => {
      const passed = code === 0
      const line = `${step.name}: ${passed ? "passed" : `failed (${signal ?? code})`} in ${seconds(started)} s`
      if (!live)
        process.stdout.write(`\n── ${line} ──\n${Buffer.concat(output)}── end of ${step.name} ──\n`)
      resolve({ passed, line })
    })
  })

const runLane = async ({ live, steps }) => {
  const results = []
  for (const step of steps) {
    const result = await run(step, live)
    results.push(result)
    if (!result.passed) break
  }
  return results
}

const started = performance.now()
const results = (await Promise.all(lanes.map(runLane))).flat()
const passed =
  results.length === lanes.flatMap((lane) => lane.steps).length && results.every((r) => r.passed)
process.stdout.write(
  `\n${results.map((r) => r.line).join("\n")}\nnpm test: ${passed ? "passed" : "failed"} in ${seconds(started)} s\n`
)
process.exitCode = passed ? 0 : 1
