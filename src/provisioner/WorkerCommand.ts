/**
 * How a worker process is started. Under tsx every import of the worker pays for tsx's
 * resolve and load hooks (seconds for Effect's many modules on this machine), so the
 * worker runs from one esbuild bundle of its entry, with only chDB's native package left
 * out. It is built once per service process, written by content hash under
 * `node_modules/.cache/sluice/` (where the bundle still resolves `chdb`), and a worker
 * then loads in about a second. If bundling fails, workers run the TypeScript under tsx.
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const require = createRequire(import.meta.url)
const entry = fileURLToPath(new URL("./EngineWorker.ts", import.meta.url))

const underTsx = () => ["--import", pathToFileURL(require.resolve("tsx")).href, entry]

const nodeModules = () => {
  const chdb = require.resolve("chdb")
  return chdb.slice(0, chdb.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 13)
}

const bundle = Effect.tryPromise(async () => {
  const esbuild = await import("esbuild")
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    write: false,
    logLevel: "silent",
    external: ["chdb", "@chdb/*", "*.node"],
    // Bundled CommonJS packages call `require`, which an ES module does not have.
    banner: {
      js: "import { createRequire as __sluiceRequire } from 'node:module'; const require = __sluiceRequire(import.meta.url);"
    }
  })
  const code = result.outputFiles[0]!.contents
  const hash = createHash("sha256").update(code).digest("hex").slice(0, 16)
  const dir = path.join(nodeModules(), ".cache", "sluice")
  const file = path.join(dir, `engine-worker-${hash}.mjs`)
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dir, { recursive: true })
    // Written aside, then renamed: another process may be writing the same bundle.
    const partial = `${file}.${process.pid}.tmp`
    fs.writeFileSync(partial, code)
    fs.renameSync(partial, file)
  }
  return [file]
})

/** The arguments to run a worker with `node`; bundled once, then reused. */
export const workerCommand: Effect.Effect<ReadonlyArray<string>> = Effect.runSync(
  Effect.cached(
    bundle.pipe(
      Effect.tapError((error) =>
        Effect.logWarning("Engine workers run under tsx: bundling failed", error)
      ),
      Effect.orElseSucceed(underTsx)
    )
  )
)
