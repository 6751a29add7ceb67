/**
 * A CommonJS bundle run as a script with V8's code cache beside it, so that a start reads
 * compiled code instead of compiling the bundle again: the service (`src/start.mjs`) and
 * the command line (`src/cli/sluice.cjs`). The cache is named by Node's version and made
 * under the process's flags; one that V8 refuses (another version or flags) is made again.
 * Plain JavaScript: both run before anything can compile TypeScript.
 */
"use strict"
const fs = require("node:fs")
const Module = require("node:module")
const path = require("node:path")
const v8 = require("node:v8")
const vm = require("node:vm")

/**
 * Runs `file` as a module of its own; where it had no usable cache, `whenToCache` is given
 * the function that writes one (written aside, then renamed), to call once the code worth
 * keeping has been compiled. `flags` are the V8 flags the bundle's code sets as it runs
 * (`src/runtime/v8Flags.cjs`), set here first so that the cache written later is made
 * under the flags the next start compiles with.
 */
exports.runWithCodeCache = (file, whenToCache, flags = []) => {
  for (const flag of flags) v8.setFlagsFromString(flag)
  const codeCache = `${file}.v8-${process.version}`
  let cachedData
  try {
    cachedData = fs.readFileSync(codeCache)
  } catch {}
  const script = new vm.Script(Module.wrap(fs.readFileSync(file, "utf8")), {
    filename: file,
    cachedData
  })
  const bundle = { exports: {} }
  script.runInThisContext()(
    bundle.exports,
    Module.createRequire(file),
    bundle,
    file,
    path.dirname(file)
  )
  if (cachedData === undefined || script.cachedDataRejected)
    whenToCache(() => {
      try {
        const partial = `${codeCache}.${process.pid}.tmp`
        fs.writeFileSync(partial, script.createCachedData())
        fs.renameSync(partial, codeCache)
      } catch {}
    })
}

/** How old a bundle of earlier sources is before it goes: a process started on it has read it. */
const STALE_MS = 3600_000

/**
 * Removes, beside `file` (a bundle just built), the bundles of earlier sources named by
 * `pattern` and their code caches, once an hour old: each edit of the sources builds a new
 * bundle (the service's is ~6 MB, with ~4 MB of code cache), and nothing starts on the old.
 */
exports.removeEarlierBundles = (file, pattern) => {
  const dir = path.dirname(file)
  const before = Date.now() - STALE_MS
  for (const name of fs.readdirSync(dir)) {
    if (!pattern.test(name) || name.startsWith(path.basename(file))) continue
    const other = path.join(dir, name)
    const stat = fs.statSync(other, { throwIfNoEntry: false })
    if (stat !== undefined && stat.mtimeMs < before) fs.rmSync(other, { force: true })
  }
}
