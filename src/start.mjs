/**
 * `npm start`: runs `main.ts` from one esbuild bundle of the service with its packages,
 * built once per checkout and kept in `node_modules/.cache/sluice/` (named by every
 * source file's size and time, so an edit rebuilds it), and run as a script with V8's code
 * cache beside it, written once the service has started. Under tsx every import crosses
 * its loader hooks (9–10 s to load the service, and ~120 MB more); with the packages
 * imported as ES modules, Node 20 compiled every module at every start (it keeps no code
 * cache for them) and resolved, stated and read each of hundreds of files: a restart took
 * 2.3–2.7 s to a healthy `/health`, 1.5–1.7 s as one script with its code cache. Plain
 * JavaScript because it runs before anything can compile TypeScript. `--prepare` (npm
 * install's `postinstall`) builds the bundle and exits; if bundling fails the service
 * runs under tsx.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { removeEarlierBundles, runWithCodeCache } from "./bundle/codeCache.cjs"
import { latin1Source } from "./bundle/latin1Source.mjs"
import { ownLocation } from "./bundle/sourcePlugin.mjs"
import { EXPOSE_GC, LIFTOFF_ONLY } from "./runtime/v8Flags.cjs"

const require = createRequire(import.meta.url)
const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const entry = path.join(project, "src", "main.ts")

// What a bundle is made of: TypeScript, and the plain JavaScript beside it (the runners'
// helpers, the generated SPL parser).
const SOURCE = /\.(ts|js|cjs|mjs)$/

const sourceFiles = (root) =>
  fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((file) => file.isFile() && SOURCE.test(file.name))
    .map((file) => path.join(file.parentPath, file.name))

const bundleKey = () => {
  const inputs = [
    path.join(project, "package-lock.json"),
    ...["src", "domain", "layers"].flatMap((dir) => sourceFiles(path.join(project, dir)))
  ].map((file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    return `${file}:${stat?.size}:${stat?.mtimeMs}`
  })
  return createHash("sha256").update(inputs.sort().join("\n")).digest("hex").slice(0, 16)
}

/**
 * Packages left outside the bundle, loaded from `node_modules` as they are: native code
 * (chDB, argon2, esbuild's binary), files found beside their modules (PGlite's WebAssembly
 * and data), the TypeScript loader, and the AWS SDK, which only a storage check loads.
 */
const EXTERNAL = [
  "@electric-sql/pglite",
  "@electric-sql/pglite/*",
  "@electric-sql/pglite-socket",
  "chdb",
  "@chdb/*",
  "@node-rs/*",
  "*.node",
  "esbuild",
  "tsx",
  "tsx/*",
  "@aws-sdk/*"
]

const mainBundle = async () => {
  const esbuildPath = require.resolve("esbuild")
  const nodeModules = esbuildPath.slice(
    0,
    esbuildPath.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 13
  )
  const dir = path.join(nodeModules, ".cache", "sluice")
  const file = path.join(dir, `main-${bundleKey()}.cjs`)
  if (fs.existsSync(file)) return file
  const esbuild = await import("esbuild")
  try {
    const result = await esbuild.build({
      entryPoints: [entry],
      bundle: true,
      external: EXTERNAL,
      platform: "node",
      format: "cjs",
      target: "node20",
      // `import()` as `require`: a script run by `vm` cannot import without Node's
      // experimental module flags, and every package left outside has a CommonJS build.
      supported: { "dynamic-import": false },
      write: false,
      logLevel: "silent",
      plugins: [ownLocation]
    })
    fs.mkdirSync(dir, { recursive: true })
    // Written aside, then renamed: another process may be writing the same bundle.
    const partial = `${file}.${process.pid}.tmp`
    fs.writeFileSync(partial, latin1Source(result.outputFiles[0].text))
    fs.renameSync(partial, file)
    removeEarlierBundles(file, /^main-[0-9a-f]{16}\.(c|m)js/)
    return file
  } finally {
    await esbuild.stop()
  }
}

/** How long after it runs the bundle's code cache is written: the start's code compiled by then. */
const CODE_CACHE_AFTER_MS = 10_000

const bundle = await mainBundle().catch((error) => {
  console.warn(`sluice: running under tsx, the bundle could not be built (${error})`)
  return undefined
})
if (process.argv.includes("--prepare")) {
  if (bundle !== undefined) console.log(`sluice service bundled (${path.basename(bundle)})`)
} else if (bundle !== undefined) {
  runWithCodeCache(bundle, (write) => setTimeout(write, CODE_CACHE_AFTER_MS).unref(), [
    EXPOSE_GC,
    LIFTOFF_ONLY
  ])
} else {
  const { register } = await import("tsx/esm/api")
  register()
  await import(pathToFileURL(entry).href)
}
