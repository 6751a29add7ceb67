/** Runs the CommonJS bundle `file` with V8's code cache; see `codeCache.cjs`. */
export declare const runWithCodeCache: (
  file: string,
  whenToCache: (write: () => void) => void,
  flags?: ReadonlyArray<string>
) => void

/** Removes the hour-old bundles named by `pattern` beside `file`, and their code caches. */
export declare const removeEarlierBundles: (file: string, pattern: RegExp) => void
