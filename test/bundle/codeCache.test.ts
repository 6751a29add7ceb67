/**
 * Bundles run with their code cache (`src/bundle/codeCache.cjs`): the cache is written
 * where there was none, read afterwards, also by a bundle whose code sets V8 flags as it
 * runs, and bundles of earlier sources go once an hour old.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { removeEarlierBundles, runWithCodeCache } from "../../src/bundle/codeCache.cjs"

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-code-cache-"))

describe("a bundle run with its code cache", () => {
  it("runs the bundle as a module, writes a cache where there was none, then reads it", () => {
    const dir = tempDir()
    const file = path.join(dir, "main-0123456789abcdef.cjs")
    fs.writeFileSync(
      file,
      "module.exports.ran = (module.exports.ran ?? 0) + 1; globalThis.__ranIn = __dirname"
    )
    const writes: Array<() => void> = []
    runWithCodeCache(file, (write) => writes.push(write))
    expect((globalThis as { __ranIn?: string }).__ranIn).toBe(dir)
    expect(writes.length).toBe(1)
    writes[0]!()
    expect(fs.existsSync(`${file}.v8-${process.version}`)).toBe(true)
    // A second run finds the cache V8 accepts: nothing to write.
    runWithCodeCache(file, (write) => writes.push(write))
    expect(writes.length).toBe(1)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("a bundle that sets a V8 flag as it runs finds its cache at the next start when the runner sets the flag first", () => {
    const dir = tempDir()
    const runner = path.resolve("src/bundle/codeCache.cjs")
    // Each start is a process of its own, as the service's and a worker's are: a flag once
    // set stays set in a process.
    const start = (file: string, flags: ReadonlyArray<string>) =>
      execFileSync(
        process.execPath,
        [
          "-e",
          `let compiled = false
          require(${JSON.stringify(runner)}).runWithCodeCache(${JSON.stringify(file)}, (write) => {
            compiled = true
            write()
          }, ${JSON.stringify(flags)})
          process.stdout.write(compiled ? "compiled" : "from cache")`
        ],
        { encoding: "utf8" }
      )
    const bundle = (name: string) => {
      const file = path.join(dir, name)
      fs.writeFileSync(
        file,
        'require("node:v8").setFlagsFromString("--expose-gc"); module.exports.ran = true'
      )
      return file
    }
    const withFlag = bundle("main-0123456789abcdef.cjs")
    expect(start(withFlag, ["--expose-gc"])).toBe("compiled")
    expect(start(withFlag, ["--expose-gc"])).toBe("from cache")
    // Without the runner setting it, V8 refuses the cache the last start wrote, every time.
    const withoutFlag = bundle("main-fedcba9876543210.cjs")
    expect(start(withoutFlag, [])).toBe("compiled")
    expect(start(withoutFlag, [])).toBe("compiled")
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("removes the hour-old bundles of earlier sources and their caches, nothing newer or else", () => {
    const dir = tempDir()
    const current = path.join(dir, "main-aaaaaaaaaaaaaaaa.cjs")
    const names = [
      "main-bbbbbbbbbbbbbbbb.cjs",
      "main-bbbbbbbbbbbbbbbb.cjs.v8-v20.0.0",
      "main-cccccccccccccccc.mjs",
      "main-dddddddddddddddd.cjs",
      "engine-worker-eeeeeeeeeeeeeeee.mjs",
      "main-aaaaaaaaaaaaaaaa.cjs.v8-v20.0.0"
    ]
    for (const name of ["main-aaaaaaaaaaaaaaaa.cjs", ...names])
      fs.writeFileSync(path.join(dir, name), "")
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000)
    for (const name of names.filter((n) => !n.startsWith("main-dddd")))
      fs.utimesSync(path.join(dir, name), twoHoursAgo, twoHoursAgo)
    removeEarlierBundles(current, /^main-[0-9a-f]{16}\.(c|m)js/)
    expect(fs.readdirSync(dir).sort()).toEqual([
      "engine-worker-eeeeeeeeeeeeeeee.mjs",
      "main-aaaaaaaaaaaaaaaa.cjs",
      "main-aaaaaaaaaaaaaaaa.cjs.v8-v20.0.0",
      "main-dddddddddddddddd.cjs"
    ])
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
