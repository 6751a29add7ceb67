/**
 * The native `release(start, length)` of `native/release-pages.c` (madvise, which Node
 * does not bind), built with the system's C compiler (`$CC`, else `cc`) against Node's
 * own headers into `node_modules/.cache/sluice/` at `npm install`, or by the first process
 * that needs it. Where there is no compiler or no headers, nothing is released and nothing
 * else changes: `npm install && npm start` still needs nothing more.
 */
import { Data, Effect } from "effect"
import { execFile } from "node:child_process"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { cacheDirectory, nodeModules } from "../bundle/CacheDirectory.js"

const require = createRequire(import.meta.url)

export class ReleasePagesUnavailable extends Data.TaggedError("ReleasePagesUnavailable")<{
  readonly reason: string
}> {}

/** madvise(MADV_DONTNEED) over `length` bytes from `start`: 0, or the errno. */
export type Release = (start: bigint, length: bigint) => number

// Found from `node_modules`, not from this module: the engine worker runs as a bundle
// kept in `node_modules/.cache/sluice/`.
const sourceFile = () =>
  path.join(path.dirname(nodeModules()), "src", "runtime", "native", "release-pages.c")

/** Node's headers as an installed Node has them (`<prefix>/include/node`). */
const headerDirectory = () => path.resolve(path.dirname(process.execPath), "..", "include", "node")

const unavailable = (reason: string) => new ReleasePagesUnavailable({ reason })

const compile = (source: string, output: string) =>
  Effect.async<void, ReleasePagesUnavailable>((resume) => {
    const compiler = process.env.CC ?? "cc"
    const args = ["-shared", "-fPIC", "-O2", "-I", headerDirectory(), "-o", output, source]
    const child = execFile(compiler, args, { timeout: 60_000 }, (error) =>
      resume(
        error === null
          ? Effect.void
          : Effect.fail(
              unavailable(
                "code" in error && error.code === "ENOENT"
                  ? `no C compiler "${compiler}"`
                  : `${compiler} could not build it`
              )
            )
      )
    )
    return Effect.sync(() => child.kill())
  })

/** The built addon's path in `directory`, building it if this source has not been built yet. */
export const buildIn = (directory: string): Effect.Effect<string, ReleasePagesUnavailable> =>
  Effect.gen(function* () {
    if (process.platform !== "linux") return yield* unavailable("not on Linux")
    const source = sourceFile()
    const text = yield* Effect.try({
      try: () => fs.readFileSync(source),
      catch: () => unavailable(`${path.basename(source)} is missing`)
    })
    const key = createHash("sha256").update(text).update(process.arch).digest("hex").slice(0, 16)
    const file = path.join(directory, `release-pages-${key}.node`)
    if (fs.existsSync(file)) return file
    if (!fs.existsSync(path.join(headerDirectory(), "node_api.h"))) {
      return yield* unavailable("no Node headers (include/node) beside this node")
    }
    const written = (write: () => void) =>
      Effect.try({ try: write, catch: () => unavailable("the cache directory is not writable") })
    yield* written(() => fs.mkdirSync(directory, { recursive: true }))
    // Built aside, then renamed: another process may be building the same file.
    const partial = `${file}.${process.pid}.tmp`
    yield* compile(source, partial)
    yield* written(() => fs.renameSync(partial, file))
    return file
  })

/** `buildIn` the cache of built artefacts (`node_modules/.cache/sluice/`). */
export const build = Effect.suspend(() => buildIn(cacheDirectory()))

/** `release`, loaded (and built first if need be). */
export const load: Effect.Effect<Release, ReleasePagesUnavailable> = Effect.flatMap(build, (file) =>
  Effect.try({
    try: () => (require(file) as { readonly release: Release }).release,
    catch: () => unavailable("the built addon does not load")
  })
)
