import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as FilePages from "../../src/runtime/FilePages.js"
import * as ReleasePages from "../../src/runtime/ReleasePages.js"

/** One mapping of `/proc/PID/smaps`, as the kernel writes it (fields trimmed to a few). */
const mapping = (range: string, perms: string, file: string, rssKb: number, anonymousKb: number) =>
  [
    `${range} ${perms} 00000000 fe:00 260689                             ${file}`.trimEnd(),
    "Size:               7612 kB",
    "KernelPageSize:        4 kB",
    `Rss:             ${String(rssKb).padStart(6)} kB`,
    "Shared_Clean:          0 kB",
    `Anonymous:       ${String(anonymousKb).padStart(6)} kB`,
    "THPeligible:           0",
    "VmFlags: rd mr mw me"
  ].join("\n")

const lib = "/app/node_modules/@chdb/lib-linux-x64-gnu/libchdb.so"

const smaps = [
  mapping("00400000-00b6f000", "r--p", "/usr/bin/node", 5940, 0),
  mapping("00b6f000-02a00000", "r-xp", "/usr/bin/node", 30000, 0),
  // Written (the kernel copied pages of it): releasing would lose what was written.
  mapping("02a00000-02a10000", "r--p", "/usr/bin/node", 64, 12),
  mapping("02a10000-02a20000", "rw-p", "/usr/bin/node", 64, 64),
  mapping("7f0000000000-7f0006a00000", "r-xp", lib, 106000, 0),
  // Not resident: nothing to give back.
  mapping("7f0006a00000-7f0006b00000", "r--p", lib, 0, 0),
  // Shared, or of a file the process may unload: left alone.
  mapping("7f0007000000-7f0007100000", "r--s", lib, 100, 0),
  mapping("7f0008000000-7f0008100000", "r-xp", "/usr/lib/x86_64-linux-gnu/libz.so.1", 80, 0),
  mapping("7f0009000000-7f0009021000", "rw-p", "", 132, 132),
  mapping("7ffd1d5e1000-7ffd1d5e3000", "r-xp", "[vdso]", 8, 0)
].join("\n")

const kept = (file: string) => file === "/usr/bin/node" || file.endsWith("/libchdb.so")

describe("FilePages", () => {
  it("releases only read-only private mappings of the kept files with no page written", () => {
    expect(FilePages.releasable(smaps, kept)).toEqual([
      { start: 0x400000n, end: 0xb6f000n, file: "/usr/bin/node", residentBytes: 5940 * 1024 },
      { start: 0xb6f000n, end: 0x2a00000n, file: "/usr/bin/node", residentBytes: 30000 * 1024 },
      { start: 0x7f0000000000n, end: 0x7f0006a00000n, file: lib, residentBytes: 106000 * 1024 }
    ])
  })

  it("a mapping whose written count is missing is not released", () => {
    const withoutCount = mapping("00400000-00b6f000", "r-xp", "/usr/bin/node", 5940, 0)
      .split("\n")
      .filter((line) => !line.startsWith("Anonymous:"))
      .join("\n")
    expect(FilePages.releasable(withoutCount, kept)).toEqual([])
  })

  it.effect(
    "the built release gives node's resident code pages back, and the process runs on",
    () =>
      Effect.gen(function* () {
        const release = yield* ReleasePages.load
        const node = fs.realpathSync(process.execPath)
        const holding = FilePages.holding(release, (file) => file === node)
        const before = holding.heldBytes()
        expect(before).toBeGreaterThan(8 * 1024 * 1024)
        holding.giveBack()
        // Reading smaps and the test's own code map some pages again at once: most stay out.
        const after = holding.heldBytes()
        expect(after).toBeLessThan(before / 2)
        // Code that ran before the release runs again, from pages mapped back from the file.
        expect(JSON.parse(JSON.stringify({ a: [1, 2, 3] }))).toEqual({ a: [1, 2, 3] })
        expect(release(0n, 1n)).not.toBe(0)
      })
  )
})

describe("ReleasePages", () => {
  const withCompiler = <A, E>(compiler: string, effect: Effect.Effect<A, E>) =>
    Effect.acquireUseRelease(
      Effect.sync(() => {
        const was = process.env.CC
        process.env.CC = compiler
        return was
      }),
      () => effect,
      (was) =>
        Effect.sync(() => {
          if (was === undefined) delete process.env.CC
          else process.env.CC = was
        })
    )
  const emptyDirectory = () => fs.mkdtempSync(path.join(os.tmpdir(), "release-pages-"))

  it.effect("is built where there is a C compiler, and says why not where there is none", () =>
    Effect.gen(function* () {
      const built = yield* withCompiler("cc", ReleasePages.buildIn(emptyDirectory()))
      expect(path.basename(built)).toMatch(/^release-pages-[0-9a-f]{16}\.node$/)
      expect(fs.statSync(built).size).toBeGreaterThan(0)

      const missing = yield* Effect.flip(
        withCompiler("/nonexistent/cc", ReleasePages.buildIn(emptyDirectory()))
      )
      expect(missing.reason).toBe('no C compiler "/nonexistent/cc"')

      const failing = yield* Effect.flip(
        withCompiler("false", ReleasePages.buildIn(emptyDirectory()))
      )
      expect(failing.reason).toBe("false could not build it")
    })
  )

  it.effect("a cache directory it cannot write is a reason, not a crash", () =>
    Effect.gen(function* () {
      const file = path.join(emptyDirectory(), "a-file")
      fs.writeFileSync(file, "")
      const refused = yield* Effect.flip(ReleasePages.buildIn(path.join(file, "cache")))
      expect(refused.reason).toBe("the cache directory is not writable")
    })
  )
})
