import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { withEsbuild } from "../../src/bundle/Esbuild.js"

/** The command lines of this process's children. */
const children = () =>
  fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .flatMap((pid) => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
        return parent === process.pid
          ? [fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ")]
          : []
      } catch {
        return []
      }
    })

const esbuildChildren = () => children().filter((command) => command.includes("esbuild"))

const build = () =>
  withEsbuild(async (esbuild) => {
    const result = await esbuild.build({
      stdin: { contents: "export const answer = 42" },
      write: false,
      format: "esm"
    })
    return { running: esbuildChildren().length, bytes: result.outputFiles[0]!.contents.length }
  })

describe.runIf(process.platform === "linux")("withEsbuild", () => {
  it("stops esbuild's process once the last build in progress ends", async () => {
    const [first, second] = await Promise.all([build(), build()])
    expect(first.running).toBe(1)
    expect(second.running).toBe(1)
    expect(first.bytes).toBeGreaterThan(0)
    // Stopped means asked to exit: the process is gone once the kernel has reaped it.
    await expect.poll(esbuildChildren, { timeout: 30_000 }).toEqual([])

    const again = await build()
    expect(again.running).toBe(1)
    await expect.poll(esbuildChildren, { timeout: 30_000 }).toEqual([])
  })
})
