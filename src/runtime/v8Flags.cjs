/**
 * The V8 flags sluice's processes set while they run. V8 records the flags in force in
 * every code cache it makes and refuses a cache made under other flags: set at run time,
 * after the bundle was compiled, they made each cache the service wrote unusable at its
 * next start. So the bundle runners (`codeCache.cjs`) set a process's flags before they
 * compile, and the code that needs a flag still sets it (idempotent), for the processes
 * that run it unbundled (tests, under tsx). Plain JavaScript: the runners load it before
 * anything can compile TypeScript.
 */
"use strict"

/** `gc()` for a new context: idle processes collect their young generation (`IdleMemory.ts`). */
exports.EXPOSE_GC = "--expose-gc"

/** PGlite's WebAssembly on V8's baseline tier only (`EmbeddedPostgres.ts`). */
exports.LIFTOFF_ONLY = "--liftoff-only"
