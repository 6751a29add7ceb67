/**
 * A freshly initialised and migrated control plane, made once per install and copied
 * into each new data directory. PGlite initialises a new directory by running `initdb` in
 * a second WebAssembly instance: slow on a small machine, and the service process kept
 * much of that instance's memory after it closed. Copying the files takes a fraction of a
 * second; the template is built at `npm install` (`src/prepare.ts`) or, if missing, by a
 * short-lived child process on first use, so its memory goes with it
 * (`TemplateBuild.ts`).
 *
 * It holds only the `postgres` database, the one PGlite opens, with the schema already
 * applied: a first start's migrator finds nothing left to run. Beside the directory, the
 * same files as one archive (`<template>.tar`) start a control plane in memory
 * (`EmbeddedPostgres.inMemory`): PGlite loads it in ~0.4 s, where `initdb` and the
 * migrations in memory took ~2.6 s (3.3 s of CPU).
 */
import { Effect } from "effect"
import { spawn } from "node:child_process"
import { createHash } from "node:crypto"
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
 * The migrations' sources, hashed: a template is never taken for a schema it was not
 * built with, even while a migration is being written.
 */
const migrationsKey = (): string => {
  const directory = fileURLToPath(new URL("./migrations/", import.meta.url))
  const hash = createHash("sha256")
  for (const name of fs.readdirSync(directory).sort())
    hash.update(name).update(fs.readFileSync(path.join(directory, name)))
  return hash.digest("hex").slice(0, 12)
}

/** The template of this install's PGlite (its files depend on the version) and schema. */
export const templateDirectory = () =>
  path.join(cacheDirectory(), `control-plane-${pgliteVersion()}-${migrationsKey()}`)

export const hasCluster = (directory: string) => fs.existsSync(path.join(directory, "PG_VERSION"))

/** The template `directory`'s files as one archive, as PGlite dumps and loads them. */
export const archiveOf = (directory: string) => `${directory}.tar`

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
 * The template's archive, built first if missing; `undefined` where none can be had (PGlite
 * then initialises in memory itself, and the migrator applies the schema).
 */
export const archive: Effect.Effect<Blob | undefined> = Effect.gen(function* () {
  const template = templateDirectory()
  const file = archiveOf(template)
  if (!fs.existsSync(file)) yield* buildInChild(template)
  return yield* Effect.try(() => new Blob([fs.readFileSync(file)]))
}).pipe(
  Effect.catchAll((error) =>
    Effect.as(
      Effect.logWarning("The control plane is initialised in memory: no template", error),
      undefined
    )
  )
)

/**
 * Fills `directory` (absent) from the template: copied aside, then renamed, so a crash
 * mid-copy leaves no half directory. Where no template can be had, does nothing and
 * PGlite initialises the directory itself (the migrator then applies the schema).
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
