/**
 * The data directory holds password hashes, memberships and every cluster's data: after a
 * start it and everything in it are the owner's alone, whatever modes it was found with.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { adminKeyOf, call, freshDataDir, startServer } from "../support/server.js"

const entries = (directory: string) => {
  try {
    return fs.readdirSync(directory)
  } catch {
    return [] // removed meanwhile by a merge of the engine
  }
}

/** Every path under `root` (itself included) that its group or others may use. */
const opened = (root: string): Array<string> => {
  const stat = fs.lstatSync(root, { throwIfNoEntry: false })
  if (stat === undefined || stat.isSymbolicLink()) return []
  const here = (stat.mode & 0o077) === 0 ? [] : [`${root} ${(stat.mode & 0o777).toString(8)}`]
  if (!stat.isDirectory()) return here
  return [...here, ...entries(root).flatMap((entry) => opened(path.join(root, entry)))]
}

const loosen = (root: string) => {
  const stat = fs.lstatSync(root)
  if (stat.isSymbolicLink()) return
  fs.chmodSync(root, stat.isDirectory() ? 0o755 : 0o666)
  if (stat.isDirectory()) for (const entry of fs.readdirSync(root)) loosen(path.join(root, entry))
}

/** Starts the server, lets its cluster's engine write, and stops it; returns what is open. */
const startAndUse = (dataDir: string, key?: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const server = yield* startServer(dataDir)
      const token = key ?? adminKeyOf(server)
      const inserted = yield* call(server, "POST", "/v1/tables/private_check", {
        token,
        body: { a: 1 }
      })
      expect(inserted.status).toBe(200)
      return { opened: opened(dataDir), token }
    })
  )

describe("data directory", () => {
  it.live(
    "a 0755 directory becomes 0700 and nothing under it is open to others, also after a restart",
    () =>
      Effect.gen(function* () {
        const dataDir = freshDataDir("sluice-private")
        fs.chmodSync(dataDir, 0o755)
        const first = yield* startAndUse(dataDir)
        expect(first.opened).toEqual([])
        expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700)

        // As an older version left it: directories 0755, files 0666.
        loosen(dataDir)
        expect((yield* startAndUse(dataDir, first.token)).opened).toEqual([])
        expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700)
      }),
    180_000
  )
})
