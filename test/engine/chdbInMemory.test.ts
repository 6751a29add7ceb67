/**
 * chDB opened on `:memory:` keeps nothing on disk where it runs: no directory named after
 * it appears in the working directory (one did, at the repository's top level).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import * as ChdbEngine from "../../src/engine/ChdbEngine.js"
import { queryText } from "./helpers.js"

describe("chDB in memory", () => {
  it.scoped("answers and makes no directory in the working directory", () =>
    Effect.gen(function* () {
      const where = path.join(process.cwd(), ":memory:")
      expect(fs.existsSync(where)).toBe(false)
      const engine = yield* ChdbEngine.open(":memory:")
      expect((yield* queryText(engine, "SELECT 1 + 1", "TabSeparated")).trim()).toBe("2")
      expect(fs.existsSync(where)).toBe(false)
    })
  )
})
