import { describe, expect, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { cacheDirectory } from "../../src/bundle/CacheDirectory.js"

const project = path.join(import.meta.dirname, "../..")

describe("the service's bundle (npm start)", () => {
  it("imports each @effect/platform module by its own path, never the package's index", () => {
    const said = execFileSync(process.execPath, ["src/start.mjs", "--prepare"], {
      cwd: project,
      encoding: "utf8"
    })
    const name = /\((main-[0-9a-f]+\.mjs)\)/.exec(said)?.[1]
    expect(name).toBeDefined()
    const bundle = fs.readFileSync(path.join(cacheDirectory(), name!), "utf8")
    // The index loads the API reference pages (Scalar's, Swagger UI's): ~20 MB of heap.
    expect(bundle).not.toMatch(/from\s*"@effect\/platform"/)
    expect(bundle).toContain('from "@effect/platform/HttpApiBuilder"')
  })
})
