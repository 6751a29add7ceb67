/**
 * The console's browser bundle, built by esbuild (already the service's bundler, and a
 * whole build of the app takes seconds; vite's would add a toolchain and a second
 * bundler for the same output). Content-hashed file names, code split so the SPL and
 * PromQL editors and the charts load when a view needs them (the views themselves are in
 * the page's script). Builds are kept under `node_modules/.cache/sluice/console-<key>/`, keyed by their inputs, so `npm install`'s
 * `prepare` build serves every later start; a changed tree builds again on first use.
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { withEsbuild } from "../bundle/Esbuild.js"

const require = createRequire(import.meta.url)
const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..")
const appDir = path.join(project, "src", "console", "app")
const mainEntry = path.join(appDir, "main.tsx")
// The export's service worker: a script of its own, which the page registers by its name.
const workerEntry = path.join(appDir, "sql", "exportWorker.ts")

/** What the built files are, by name under `/assets/`; `index.html` is the page. */
export interface ConsoleFiles {
  readonly dir: string
  readonly names: ReadonlyArray<string>
}

const filesUnder = (root: string): Array<string> =>
  fs
    .readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))

/** The app's sources (by content), the contract's (by size and time) and the lock file. */
const buildKey = () => {
  const hash = createHash("sha256")
  for (const file of filesUnder(appDir).sort()) hash.update(file).update(fs.readFileSync(file))
  for (const file of [
    ...filesUnder(path.join(project, "domain")),
    path.join(project, "package-lock.json"),
    fileURLToPath(import.meta.url)
  ].sort()) {
    const stat = fs.statSync(file, { throwIfNoEntry: false })
    hash.update(`${file}:${stat?.size}:${stat?.mtimeMs}`)
  }
  return hash.digest("hex").slice(0, 16)
}

const cacheRoot = () => {
  const esbuild = require.resolve("esbuild")
  const nodeModules = esbuild.slice(
    0,
    esbuild.lastIndexOf(`${path.sep}node_modules${path.sep}`) + 13
  )
  return path.join(nodeModules, ".cache", "sluice")
}

const page = (script: string, style: string | undefined, preload: ReadonlyArray<string>) =>
  [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    "<title>sluice</title>",
    '<link rel="icon" href="data:,">',
    style === undefined ? "" : `<link rel="stylesheet" href="/assets/${style}">`,
    `<script type="module" src="/assets/${script}"></script>`,
    ...preload.map((name) => `<link rel="modulepreload" href="/assets/${name}">`),
    "</head>",
    '<body><div id="app"></div></body>',
    "</html>",
    ""
  ].join("\n")

const version = (): string => {
  const manifest: unknown = JSON.parse(fs.readFileSync(path.join(project, "package.json"), "utf8"))
  return typeof manifest === "object" &&
    manifest !== null &&
    "version" in manifest &&
    typeof manifest.version === "string"
    ? manifest.version
    : "0"
}

/** The console's files, built now unless a build of the same inputs is kept. */
export const buildConsole = async (): Promise<ConsoleFiles> => {
  const dir = path.join(cacheRoot(), `console-${buildKey()}`)
  if (fs.existsSync(path.join(dir, "index.html"))) {
    return { dir, names: fs.readdirSync(path.join(dir, "assets")) }
  }
  const partial = `${dir}.${process.pid}.tmp`
  const result = await withEsbuild(async (esbuild) => {
    const worker = await esbuild.build({
      absWorkingDir: project,
      entryPoints: [workerEntry],
      bundle: true,
      format: "iife",
      platform: "browser",
      target: "es2022",
      minify: true,
      outdir: path.join(partial, "assets"),
      entryNames: "[name]-[hash]",
      logLevel: "silent",
      metafile: true,
      write: true
    })
    const workerName = path.basename(Object.keys(worker.metafile.outputs)[0] ?? "")
    return esbuild.build({
      absWorkingDir: project,
      entryPoints: [mainEntry],
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      minify: true,
      outdir: path.join(partial, "assets"),
      entryNames: "[name]-[hash]",
      chunkNames: "chunk-[hash]",
      assetNames: "[name]-[hash]",
      jsx: "automatic",
      jsxImportSource: "preact",
      define: {
        "process.env.NODE_ENV": '"production"',
        SLUICE_CONSOLE_VERSION: JSON.stringify(version()),
        SLUICE_EXPORT_WORKER: JSON.stringify(workerName)
      },
      logLevel: "silent",
      metafile: true,
      write: true
    })
  })
  const outputs = Object.entries(result.metafile.outputs)
  // Lazily imported modules are entry points of their own in the metafile: the page's is main.
  const entry = outputs.find(
    ([, output]) =>
      output.entryPoint !== undefined && path.resolve(project, output.entryPoint) === mainEntry
  )
  if (entry === undefined) throw new Error("the console build made no entry")
  const script = path.basename(entry[0])
  const style = entry[1].cssBundle === undefined ? undefined : path.basename(entry[1].cssBundle)
  // The chunks the page's script imports, named in the page so they load beside it rather
  // than once it has arrived and been parsed.
  const preload = new Set<string>()
  const visit = (output: string) => {
    for (const imported of result.metafile.outputs[output]?.imports ?? [])
      if (imported.kind === "import-statement" && !preload.has(path.basename(imported.path))) {
        preload.add(path.basename(imported.path))
        visit(imported.path)
      }
  }
  visit(entry[0])
  fs.writeFileSync(path.join(partial, "index.html"), page(script, style, [...preload]))
  try {
    fs.renameSync(partial, dir)
  } catch {
    // Another process built the same inputs first: theirs is as good.
    fs.rmSync(partial, { recursive: true, force: true })
  }
  return { dir, names: fs.readdirSync(path.join(dir, "assets")) }
}
