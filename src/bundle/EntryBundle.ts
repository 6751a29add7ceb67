/**
 * One esbuild bundle of a TypeScript entry, for a process that runs outside the service's
 * own module graph (an engine worker). Under tsx every import pays for tsx's resolve and
 * load hooks (seconds for Effect's many modules on this machine), and a process started by
 * plain `node` has no TypeScript loader at all. Bundles are kept under
 * `node_modules/.cache/sluice/`, where their external packages still resolve, named by
 * their inputs so an unchanged tree reuses them (a later service process, or a test
 * process, builds nothing). A bundle is CommonJS, run by `runBundle.cjs` with V8's code
 * cache: as an ES module, Node compiled its 2 MB at every start (~55 ms of a worker's
 * ~200 ms to idle).
 */
import { Effect } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { cacheDirectory } from "./CacheDirectory.js"
import { removeEarlierBundles } from "./codeCache.cjs"
import { withEsbuild } from "./Esbuild.js"
import { latin1Source } from "./latin1Source.mjs"
import { ownLocation } from "./sourcePlugin.mjs"

// What a bundle is made of: TypeScript, and the plain JavaScript beside it (`v8Flags.cjs`,
// `sourcePlugin.mjs`, the generated SPL parser).
const SOURCE = /\.(ts|js|cjs|mjs)$/

const sourceFiles = (root: string): Array<string> =>
  fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && SOURCE.test(entry.name))
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

/** The file that runs a bundle in a process of its own: `node <runner> <bundle>`. */
export const bundleRunner = fileURLToPath(new URL("./runBundle.cjs", import.meta.url))

/**
 * The bundle of `entry` (an absolute path), as `<name>-<key>.cjs`; `external` packages
 * stay `require`s (native code, or packages that load files next to their modules).
 */
export const bundleOf = (entry: string, name: string, external: ReadonlyArray<string>) =>
  Effect.tryPromise(async () => {
    const dir = cacheDirectory()
    const file = path.join(dir, `${name}-${bundleKey(entry)}.cjs`)
    if (fs.existsSync(file)) return file
    const result = await withEsbuild((esbuild) =>
      esbuild.build({
        entryPoints: [entry],
        bundle: true,
        platform: "node",
        format: "cjs",
        target: "node20",
        // `import()` as `require`: a script run by `vm` cannot import without Node's
        // experimental module flags.
        supported: { "dynamic-import": false },
        write: false,
        logLevel: "silent",
        external: [...external],
        plugins: [ownLocation]
      })
    )
    fs.mkdirSync(dir, { recursive: true })
    // Written aside, then renamed: another process may be writing the same bundle.
    const partial = `${file}.${process.pid}.tmp`
    fs.writeFileSync(partial, latin1Source(result.outputFiles[0]!.text))
    fs.renameSync(partial, file)
    removeEarlierBundles(file, new RegExp(`^${name}-[0-9a-f]{16}\\.(c|m)js`))
    return file
  })
