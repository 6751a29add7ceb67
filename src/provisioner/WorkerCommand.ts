/**
 * How a worker process is started. Under tsx every import of the worker pays for tsx's
 * resolve and load hooks (seconds for Effect's many modules on this machine), so the
 * worker runs from one esbuild bundle of its entry, with only chDB's native package left
 * out. It is built at most once per service process and kept under
 * `node_modules/.cache/sluice/` (where the bundle still resolves `chdb`), named by its
 * inputs so an unchanged tree reuses it; a worker then loads in about a second. If bundling fails, workers run the TypeScript under tsx.
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

/** The project's own files, walked once. */
const sourceFiles = (root: string): Array<string> =>
  fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))

/**
 * Names the bundle by what goes into it (every source file's size and mtime, and the
 * lock file's), so a later service process, or a test process, reuses it unbuilt.
 */
const bundleKey = () => {
  // The project of the entry itself: `node_modules` may be a link into another checkout.
  const project = path.resolve(path.dirname(entry), "..", "..")
  const inputs = [
    entry,
    ...sourceFiles(path.join(project, "src")),
    ...sourceFiles(path.join(project, "domain")),
    path.join(project, "package-lock.json")
  ].map((file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    return `${file}:${stat?.size}:${stat?.mtimeMs}`
  })
  return createHash("sha256").update(inputs.sort().join("\n")).digest("hex").slice(0, 16)
}

const bundle = Effect.tryPromise(async () => {
  const modules = nodeModules()
  const dir = path.join(modules, ".cache", "sluice")
  const file = path.join(dir, `engine-worker-${bundleKey()}.mjs`)
  if (fs.existsSync(file)) return [file]
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
  fs.mkdirSync(dir, { recursive: true })
  // Written aside, then renamed: another process may be writing the same bundle.
  const partial = `${file}.${process.pid}.tmp`
  fs.writeFileSync(partial, result.outputFiles[0]!.contents)
  fs.renameSync(partial, file)
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
