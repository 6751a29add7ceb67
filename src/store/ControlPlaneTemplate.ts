/**
 * A freshly initialised control plane, made once per install and copied into each new
 * data directory. PGlite initialises a new directory by running `initdb` in a second
 * WebAssembly instance: slow on a small machine, and the service process kept much of
 * that instance's memory after it closed. Copying the files takes a fraction of a
 * second; the template is built at `npm install` (`src/prepare.ts`) or, if missing, by
 * a short-lived child process on first use, so its memory goes with it.
 *
 * The template holds only the `postgres` database, the one PGlite opens: `initdb`'s
 * `template0` and `template1` are there for `CREATE DATABASE`, which the control plane
 * never runs. Without them a new directory is 371 files and 24 MB instead of 971 and
 * 39 MB, and copying it took 135 ms instead of 370 (removing it 47 instead of 105).
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { cacheDirectory, nodeModules } from "../bundle/CacheDirectory.js"

const require = createRequire(import.meta.url)

const pgliteVersion = (): string => {
  const manifest = path.join(nodeModules(), "@electric-sql", "pglite", "package.json")
  return (JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string }).version
}

/**
 * The template of this install's PGlite (its files depend on PGlite's version); the
 * suffix names what it holds, so a template of another shape is never taken for it.
 */
export const templateDirectory = () =>
  path.join(cacheDirectory(), `control-plane-${pgliteVersion()}-postgres-only`)

const hasCluster = (directory: string) => fs.existsSync(path.join(directory, "PG_VERSION"))

/** Initialises a template beside `target`, then renames it into place (another may win). */
export const build = async (target: string) => {
  if (hasCluster(target)) return
  const { PGlite } = await import("@electric-sql/pglite")
  const partial = `${target}.${process.pid}.tmp`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.mkdirSync(path.dirname(target), { recursive: true })
  const db = await PGlite.create({ dataDir: partial })
  await db.exec(
    "UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')"
  )
  // One statement each: `DROP DATABASE` refuses to run inside a transaction block.
  for (const template of ["template0", "template1"]) await db.exec(`DROP DATABASE ${template}`)
  await db.exec("CHECKPOINT")
  await db.close()
  try {
    fs.renameSync(partial, target)
  } catch (error) {
    fs.rmSync(partial, { recursive: true, force: true })
    if (!hasCluster(target)) throw error
  }
}

const builder = fileURLToPath(new URL("./buildControlPlaneTemplate.ts", import.meta.url))

const buildInChild = (target: string) =>
  Effect.async<void, Error>((resume) => {
    const child = spawn(
      process.execPath,
      ["--import", pathToFileURL(require.resolve("tsx")).href, builder, target],
      { stdio: ["ignore", "ignore", "inherit"] }
    )
    child.once("error", (error) => resume(Effect.fail(error)))
    child.once("exit", (code) =>
      resume(
        code === 0 ? Effect.void : Effect.fail(new Error(`template build exited with ${code}`))
      )
    )
  })

/**
 * Fills `directory` (absent) from the template: copied aside, then renamed, so a crash
 * mid-copy leaves no half directory. Where no template can be had, does nothing and
 * PGlite initialises the directory itself.
 */
export const seed = (directory: string) =>
  Effect.gen(function* () {
    if (fs.existsSync(directory)) return
    const template = templateDirectory()
    if (!hasCluster(template)) yield* buildInChild(template)
    yield* Effect.try(() => {
      const partial = `${directory}.seeding`
      fs.rmSync(partial, { recursive: true, force: true })
      fs.cpSync(template, partial, { recursive: true })
      fs.renameSync(partial, directory)
    })
  }).pipe(
    Effect.catchAll((error) =>
      Effect.logWarning("The control plane is initialised in place: no template", error)
    )
  )
