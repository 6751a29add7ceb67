/**
 * Bundles run with their code cache (`src/bundle/codeCache.cjs`): the cache is written
 * where there was none, read afterwards, and bundles of earlier sources go once an hour old.
 */
import { describe, expect, it } from "@effect/vitest"
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
