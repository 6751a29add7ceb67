/**
 * The dependency rule of the code, read from the imports themselves: contracts import no
 * implementation, implementations no composition, capabilities no transport, handlers no
 * repository, and the two clients (the console and the command line) only the contract. A new import across one
 * of these lines fails here with the file and the import that crossed.
 */
import { execFileSync } from "node:child_process"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"

const root = path.resolve(import.meta.dirname, "../..")
const IMPORT = /(?:^|\n)\s*(?:import|export)[^"';]*?from\s*["'](\.{1,2}\/[^"']+)["']/g

const sources = execFileSync(
  "git",
  ["ls-files", "--cached", "--others", "--exclude-standard", "domain", "src", "layers"],
  {
    cwd: root,
    encoding: "utf8"
  }
)
  .split("\n")
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith(".d.ts"))

const importsOf = (file: string): ReadonlyArray<string> =>
  [...readFileSync(path.join(root, file), "utf8").matchAll(IMPORT)].map((match) =>
    path.normalize(path.join(path.dirname(file), match[1]!))
  )

// The console's browser code; src/console/ also holds the service's side (its build and route).
const isClient = (file: string) =>
  file.startsWith("src/cli/") || file.startsWith("src/console/app/")
const clientRoot = (file: string) => (file.startsWith("src/cli/") ? "src/cli/" : "src/console/app/")
/** Transport adapters: HTTP handlers and their helpers, the gRPC server. */
const isAdapter = (file: string) =>
  /Http\.[jt]sx?$/.test(file) ||
  file.startsWith("src/http/") ||
  file.includes("/http/") ||
  file.includes("/grpc/")

const crossings = (rule: (file: string, target: string) => boolean) =>
  sources.flatMap((file) =>
    importsOf(file)
      .filter((target) => rule(file, target))
      .map((target) => `${file} → ${target}`)
  )

describe("the dependency rule", () => {
  it("domain/ imports nothing of src/ or layers/", () => {
    expect(
      crossings(
        (file, target) =>
          file.startsWith("domain/") && (target.startsWith("src/") || target.startsWith("layers/"))
      )
    ).toEqual([])
  })

  it("src/ imports nothing of layers/ but the entry point", () => {
    expect(
      crossings(
        (file, target) =>
          file.startsWith("src/") && file !== "src/main.ts" && target.startsWith("layers/")
      )
    ).toEqual([])
  })

  it("capabilities import no transport adapter", () => {
    expect(
      crossings(
        (file, target) =>
          file.startsWith("src/") &&
          !isClient(file) &&
          !isAdapter(file) &&
          file !== "src/main.ts" &&
          isAdapter(target)
      )
    ).toEqual([])
  })

  it("HTTP handlers reach the control plane's records only through capabilities", () => {
    expect(
      crossings((file, target) => /Http\.[jt]sx?$/.test(file) && /Repo\.[jt]sx?$/.test(target))
    ).toEqual([])
  })

  it("the console and the command line import only the contract and themselves", () => {
    expect(
      crossings(
        (file, target) =>
          isClient(file) && !target.startsWith("domain/") && !target.startsWith(clientRoot(file))
      )
    ).toEqual([])
  })
})
