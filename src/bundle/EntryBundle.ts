/**
 * One esbuild bundle of a TypeScript entry, for code that runs outside the service's
 * own module graph (a worker process, a thread). Under tsx every import pays for tsx's
 * resolve and load hooks (seconds for Effect's many modules on this machine), and a
 * thread or process started by plain `node` has no TypeScript loader at all. Bundles are
 * kept under `node_modules/.cache/sluice/`, where their external packages still resolve,
 * named by their inputs so an unchanged tree reuses them (a later service process, or a
 * test process, builds nothing).
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { cacheDirectory } from "./CacheDirectory.js"
import { withEsbuild } from "./Esbuild.js"
import { latin1Source } from "./latin1Source.mjs"

const sourceFiles = (root: string): Array<string> =>
  fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(".ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))

/** Every source file's size and mtime, and the lock file's. */
const bundleKey = (entry: string) => {
  // The project of this file: `node_modules` may be a link into another checkout.
  const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")
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

// In pieces: the service's own bundle (`src/start.mjs`) gives each module its location by
// rewriting that expression wherever it appears.
const requireBanner = [
  "import { createRequire as __sluiceRequire } from 'node:module';",
  `const require = __sluiceRequire(${["import", "meta", "url"].join(".")});`
].join(" ")

/**
 * The bundle of `entry` (an absolute path), as `<name>-<key>.mjs`; `external` packages
 * stay imports (native code, or packages that load files next to their modules).
 */
export const bundleOf = (entry: string, name: string, external: ReadonlyArray<string>) =>
  Effect.tryPromise(async () => {
    const dir = cacheDirectory()
    const file = path.join(dir, `${name}-${bundleKey(entry)}.mjs`)
    if (fs.existsSync(file)) return file
    const result = await withEsbuild((esbuild) =>
      esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "esm",
        target: "node20",
        write: false,
        logLevel: "silent",
        external: [...external],
        // Bundled CommonJS packages call `require`, which an ES module does not have.
        banner: { js: requireBanner }
      })
    )
    fs.mkdirSync(dir, { recursive: true })
    // Written aside, then renamed: another process may be writing the same bundle.
    const partial = `${file}.${process.pid}.tmp`
    fs.writeFileSync(partial, latin1Source(result.outputFiles[0]!.text))
    fs.renameSync(partial, file)
    return file
  })
