/**
 * The embedding program of layers/README.md, exactly as written there, run as a user would: saved
 * under scratchpad/ and started with tsx on a fresh data directory. It must ingest and
 * read back its records, then create a database and a key and drop a table, without any
 * server.
 */
import { expect, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { freshDataDir } from "../support/server.js"

const root = path.resolve(import.meta.dirname, "../..")

/** The first TypeScript block after the embedding marker of layers/README.md. */
const readmeProgram = () => {
  const readme = fs.readFileSync(path.join(root, "layers/README.md"), "utf8")
  const after = readme.slice(readme.indexOf("<!-- embedding-example -->"))
  const block = /```ts\n([\s\S]*?)```/.exec(after)
  if (block === null) throw new Error("layers/README.md has no embedding example")
  return block[1]!
}

const run = (file: string, dataDir: string) =>
  Effect.async<{ readonly stdout: string; readonly stderr: string; readonly code: number }>(
    (resume) => {
      const child = execFile(
        path.join(root, "node_modules/.bin/tsx"),
        [file],
        { cwd: root, env: { ...process.env, SLUICE_DATA_DIR: dataDir }, timeout: 120_000 },
        (error, stdout, stderr) =>
          resume(
            Effect.succeed({ stdout, stderr, code: error === null ? 0 : (error.code as number) })
          )
      )
      return Effect.sync(() => child.kill())
    }
  )

it.effect(
  "the embedding program of layers/README.md ingests, queries and manages without a server",
  () =>
    Effect.gen(function* () {
      const file = path.join(root, "scratchpad", `embed-readme-${process.pid}.ts`)
      const done = yield* Effect.acquireRelease(
        Effect.sync(() => fs.writeFileSync(file, readmeProgram())),
        () => Effect.sync(() => fs.rmSync(file, { force: true }))
      ).pipe(Effect.zipRight(run(file, freshDataDir("embed"))), Effect.scoped)
      expect(done.code, done.stderr).toBe(0)
      expect(done.stdout.trim().split("\n")).toEqual([
        "inserted 3",
        '{"country":"DE","visits":"2","ms":"19"}',
        '{"country":"FR","visits":"1","ms":"40"}',
        "key dashboards (read_only) on analytics",
        "tables left in default: 0"
      ])
    }),
  150_000
)
