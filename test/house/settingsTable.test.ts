/**
 * The settings table (src/config/README.md) and the settings the service reads agree: every `SLUICE_*`
 * name a `Config` definition reads has a row, and every row is read by one.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = path.resolve(import.meta.dirname, "../..")
const read = (file: string) => readFileSync(path.join(root, file), "utf8")

/**
 * Names given to a `Config` definition or a helper making one (`Config.string("SLUICE_…")`,
 * `positiveInt("SLUICE_…", …)`): a name alone as a call's argument. Hints that name a
 * setting inside a sentence are not definitions; the CLI's own variables are not the
 * service's.
 */
const readByConfig = (): ReadonlyArray<string> =>
  execFileSync("git", ["ls-files", "src", "layers"], { cwd: root, encoding: "utf8" })
    .split("\n")
    .filter((file) => file.endsWith(".ts") && !file.startsWith("src/cli/"))
    .map(read)
    .flatMap((text) => [...text.matchAll(/\(\s*"(SLUICE_[A-Z0-9_]+)"/g)].map((m) => m[1]!))

const inReadme = (): ReadonlyArray<string> =>
  [...read("src/config/README.md").matchAll(/^\| `(SLUICE_[A-Z0-9_]+)`/gm)].map((m) => m[1]!)

describe("the settings table", () => {
  it("has a row for each setting the service reads, and no other", () => {
    const sorted = (names: ReadonlyArray<string>) => [...new Set(names)].sort()
    expect(sorted(inReadme())).toEqual(sorted(readByConfig()))
  })
})
