/**
 * `node runBundle.cjs <bundle> [args]`: runs a CommonJS bundle of `EntryBundle.ts` with
 * V8's code cache beside it (`codeCache.cjs`), the bundle seeing its own arguments. The
 * cache is written a few seconds in, once the process's start and first work are compiled,
 * on a timer that never keeps the process alive.
 */
"use strict"
const path = require("node:path")
const { EXPOSE_GC } = require("../runtime/v8Flags.cjs")
const { runWithCodeCache } = require("./codeCache.cjs")

const CODE_CACHE_AFTER_MS = 5_000

const [file] = process.argv.splice(2, 1)
// An engine worker collects its young generation when idle.
runWithCodeCache(path.resolve(file), (write) => setTimeout(write, CODE_CACHE_AFTER_MS).unref(), [
  EXPOSE_GC
])
