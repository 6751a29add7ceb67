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
const vm = require("node:vm")

/**
 * Runs `file` as a module of its own; where it had no usable cache, `whenToCache` is given
 * the function that writes one (written aside, then renamed), to call once the code worth
 * keeping has been compiled.
 */
exports.runWithCodeCache = (file, whenToCache) => {
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
