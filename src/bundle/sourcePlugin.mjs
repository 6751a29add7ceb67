/**
 * What every bundle of sluice's TypeScript does to its sources as esbuild loads them
 * (the service's, `src/start.mjs`; an engine worker's, `EntryBundle.ts`): a CommonJS
 * bundle has no `import.meta`, and a package index would load all of its package. Plain
 * JavaScript: the service's start uses it before anything can compile TypeScript.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

/**
 * A package's index loads every module of the package: `@effect/platform`'s the API
 * reference pages (Scalar's and Swagger UI's scripts as strings, ~20 MB of heap and 34 MB
 * RSS), `@effect/platform-node`'s `@effect/cluster` and the worker and cluster modules,
 * `@effect/sql`'s the event journal and queues, none of which the service uses. Each name
 * imported from these indexes (every export of theirs is a module namespace) is imported
 * from its own module instead (`import { A, B as C }` -> `import * as A from ".../A"`, ...).
 */
const platformModules = (source) =>
  source.replace(
    /import\s*\{([^}]*)\}\s*from\s*"(@effect\/(?:platform|platform-node|sql|rpc))"/g,
    (_, names, pkg) =>
      names
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== "" && !name.startsWith("type "))
        .map((name) => {
          const [imported, local = imported] = name.split(/\s+as\s+/)
          return `import * as ${local} from "${pkg}/${imported}";`
        })
        .join(" ")
  )

/** Each module keeps its own location: several find files beside themselves. */
export const ownLocation = {
  name: "own-location",
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, (args) => ({
      contents: platformModules(fs.readFileSync(args.path, "utf8"))
        .replaceAll("import.meta.url", JSON.stringify(pathToFileURL(args.path).href))
        .replaceAll("import.meta.dirname", JSON.stringify(path.dirname(args.path)))
        .replaceAll("import.meta.filename", JSON.stringify(args.path)),
      loader: "ts"
    }))
  }
}
