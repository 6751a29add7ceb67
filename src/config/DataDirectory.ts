/**
 * The data directory (`SLUICE_DATA_DIR`), made and checked once before anything uses it:
 * a path that cannot be used stops the start with one line (`src/main.ts`), not with
 * whichever of its users happened to fail first. It holds password hashes, memberships
 * and every cluster's data, so it and everything in it are the owner's alone.
 */
import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"

export class DataDirUnusable extends Data.TaggedError("DataDirUnusable")<{
  readonly message: string
}> {}

const reasons: Record<string, string> = {
  EEXIST: "a file is in its place",
  ENOTDIR: "a file is in its path",
  EACCES: "permission denied",
  EPERM: "permission denied",
  EROFS: "the file system is read-only"
}

const reasonOf = (error: unknown): string => {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return (
    (code === undefined ? undefined : reasons[code]) ??
    (error instanceof Error ? error.message : String(error))
  )
}

class NotPrivate extends Error {}

const GROUP_AND_OTHER = 0o077

const isGone = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

const tightenOne = (file: string, stat: fs.Stats) => {
  if ((stat.mode & GROUP_AND_OTHER) === 0) return
  try {
    fs.chmodSync(file, stat.mode & 0o700)
  } catch (error) {
    if (isGone(error)) return
    throw new NotPrivate(`${file} cannot be made private to its owner (${reasonOf(error)})`)
  }
}

const entries = (directory: string): ReadonlyArray<string> => {
  try {
    return fs.readdirSync(directory)
  } catch (error) {
    if (isGone(error)) return []
    throw error
  }
}

/**
 * Takes group and other access off `root` and everything under it (0755 → 0700,
 * 0666 → 0600); symbolic links are left alone, not followed, and a file removed meanwhile
 * (an engine's merge) is no concern.
 */
export const tightenTree = (root: string): void => {
  const stat = fs.lstatSync(root, { throwIfNoEntry: false })
  if (stat === undefined || stat.isSymbolicLink()) return
  tightenOne(root, stat)
  if (!stat.isDirectory()) return
  for (const entry of entries(root)) tightenTree(path.join(root, entry))
}

/**
 * Creates `dataDir` when missing and makes it and its contents private (directories 0700,
 * files 0600); fails unless it is a directory we may write and make private. From here on
 * the service and the engine workers it starts create their files with umask 077.
 */
export const prepare = (dataDir: string): Effect.Effect<void, DataDirUnusable> =>
  Effect.try({
    try: () => {
      process.umask(0o077)
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.X_OK)
      tightenTree(dataDir)
    },
    catch: (error) =>
      new DataDirUnusable({
        message: `SLUICE_DATA_DIR '${dataDir}' cannot be used: ${
          error instanceof NotPrivate ? error.message : reasonOf(error)
        }`
      })
  })
