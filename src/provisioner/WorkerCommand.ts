/**
 * How a worker process is started: from one bundle of its entry (`EntryBundle.ts`), with
 * only chDB's native package left out, built at most once per service process and run
 * with V8's code cache; a worker is then idle (chDB's library loaded) in ~150 ms. If
 * bundling fails, workers run the TypeScript under tsx.
 */
import { Effect } from "effect"
import { createRequire } from "node:module"
import { fileURLToPath, pathToFileURL } from "node:url"
import { bundleOf, bundleRunner } from "../bundle/EntryBundle.js"

const require = createRequire(import.meta.url)
const entry = fileURLToPath(new URL("./EngineWorker.ts", import.meta.url))

const underTsx = () => ["--import", pathToFileURL(require.resolve("tsx")).href, entry]

/** The arguments to run a worker with `node`; bundled once, then reused. */
export const workerCommand: Effect.Effect<ReadonlyArray<string>> = Effect.runSync(
  Effect.cached(
    bundleOf(entry, "engine-worker", ["chdb", "@chdb/*", "*.node"]).pipe(
      Effect.map((file) => [bundleRunner, file]),
      Effect.tapError((error) =>
        Effect.logWarning("Engine workers run under tsx: bundling failed", error)
      ),
      Effect.orElseSucceed(underTsx)
    )
  )
)
