/**
 * Where the service's Unix sockets go: in the data directory when a socket's path fits
 * `sun_path`, else in a private temp directory that goes when its scope closes.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as SocketDirectory from "../../src/sockets/SocketDirectory.js"
import { freshDataDir } from "../support/server.js"

const NAME = "engine-00000000-0000-0000-0000-000000000000.sock"
const mode = (directory: string) => fs.statSync(directory).mode & 0o777

describe("SocketDirectory", () => {
  it.scopedLive("is the data directory's run/ when a socket's path fits there", () =>
    Effect.gen(function* () {
      const dataDir = freshDataDir("sockets")
      const sockets = yield* SocketDirectory.prepare(dataDir, NAME)
      expect(sockets.directory).toBe(path.join(dataDir, "run"))
      expect(sockets.socketPath(NAME)).toBe(path.join(dataDir, "run", NAME))
      expect(mode(sockets.directory)).toBe(0o700)
    })
  )

  it.live("is a private temp directory, removed at the scope's end, when it does not fit", () =>
    Effect.gen(function* () {
      const dataDir = path.join(freshDataDir("sockets"), "d".repeat(80))
      const directory = yield* Effect.scoped(
        Effect.gen(function* () {
          const sockets = yield* SocketDirectory.prepare(dataDir, NAME)
          expect(sockets.directory.startsWith(os.tmpdir())).toBe(true)
          expect(sockets.directory.startsWith(dataDir)).toBe(false)
          expect(Buffer.byteLength(sockets.socketPath(NAME))).toBeLessThanOrEqual(103)
          expect(mode(sockets.directory)).toBe(0o700)
          return sockets.directory
        })
      )
      expect(fs.existsSync(directory)).toBe(false)
    })
  )

  it.scopedLive("is under /tmp when the system temp dir is too long as well", () =>
    Effect.gen(function* () {
      const longTemp = path.join(freshDataDir("sockets"), "t".repeat(70))
      fs.mkdirSync(longTemp, { recursive: true })
      yield* Effect.acquireRelease(
        Effect.sync(() => {
          const previous = process.env.TMPDIR
          process.env.TMPDIR = longTemp
          return previous
        }),
        (previous) =>
          Effect.sync(() => {
            if (previous === undefined) delete process.env.TMPDIR
            else process.env.TMPDIR = previous
          })
      )
      const sockets = yield* SocketDirectory.prepare(path.join(longTemp, "data"), NAME)
      expect(sockets.directory.startsWith("/tmp/sluice-")).toBe(true)
      expect(Buffer.byteLength(sockets.socketPath(NAME))).toBeLessThanOrEqual(103)
    })
  )

  it.scopedLive("refuses a name too long for any directory", () =>
    Effect.gen(function* () {
      const exit = yield* Effect.exit(
        SocketDirectory.prepare(freshDataDir("sockets"), "s".repeat(120))
      )
      expect(Exit.isFailure(exit) && String(exit.cause)).toMatch(/no socket directory short enough/)
    })
  )
})
