#!/usr/bin/env node
// The `sluice` command line. The program is TypeScript (`src/cli/main.ts`): it is bundled
// once into one CommonJS file by esbuild, kept under `node_modules/.cache/sluice/` and named
// by its inputs, and run with V8's code cache beside it, so that a start costs little more
// than Node's own (no TypeScript loader, no module resolution, no recompilation).
"use strict"
const fs = require("node:fs")
const path = require("node:path")
const crypto = require("node:crypto")
const os = require("node:os")
const { removeEarlierBundles, runWithCodeCache } = require("../bundle/codeCache.cjs")

const root = path.resolve(__dirname, "..", "..")
const entry = path.join(__dirname, "main.ts")

const inputs = () => {
  const files = [path.join(root, "package-lock.json"), path.join(root, "package.json")]
  for (const dir of [__dirname, path.join(root, "domain")])
    for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
      if (e.isFile() && e.name.endsWith(".ts")) files.push(path.join(e.parentPath, e.name))
  return files
    .map((f) => {
      const s = fs.statSync(f, { throwIfNoEntry: false })
      return `${f}:${s && s.size}:${s && s.mtimeMs}`
    })
    .sort()
    .join("\n")
}

const cacheDir = () => {
  const dir = path.join(root, "node_modules", ".cache", "sluice")
  try {
    fs.mkdirSync(dir, { recursive: true })
    fs.accessSync(dir, fs.constants.W_OK)
    return dir
  } catch {
    const fallback = path.join(os.tmpdir(), `sluice-cli-${os.userInfo().uid}`)
    fs.mkdirSync(fallback, { recursive: true, mode: 0o700 })
    return fallback
  }
}

const build = (file) => {
  const version = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version
  const result = require("esbuild").buildSync({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    write: false,
    logLevel: "silent",
    define: { __SLUICE_CLI_VERSION__: JSON.stringify(version) }
  })
  // Written aside, then renamed: another run may be building the same bundle.
  const partial = `${file}.${process.pid}.tmp`
  fs.writeFileSync(partial, result.outputFiles[0].contents)
  fs.renameSync(partial, file)
  removeEarlierBundles(file, /^cli-[0-9a-f]{16}\.cjs/)
}

const key = crypto.createHash("sha256").update(inputs()).digest("hex").slice(0, 16)
const dir = cacheDir()
const file = path.join(dir, `cli-${key}.cjs`)
if (!fs.existsSync(file)) build(file)
// At exit, when the functions this command used have been compiled too.
runWithCodeCache(file, (write) => process.once("exit", write))
