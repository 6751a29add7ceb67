/** `gc()` for a new context: idle processes collect their young generation. */
export declare const EXPOSE_GC: "--expose-gc"

/** PGlite's WebAssembly on V8's baseline tier only. */
export declare const LIFTOFF_ONLY: "--liftoff-only"
