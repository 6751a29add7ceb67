/**
 * The data directory (`SLUICE_DATA_DIR`), made and checked once before anything uses it:
 * a path that cannot be used stops the start with one line (`src/main.ts`), not with
 * whichever of its users happened to fail first.
 */
import { Data, Effect } from "effect"
import * as fs from "node:fs"

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

/** Creates `dataDir` (mode 0700) when missing; fails unless it is a directory we may write. */
export const prepare = (dataDir: string): Effect.Effect<void, DataDirUnusable> =>
  Effect.try({
    try: () => {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 })
      fs.accessSync(dataDir, fs.constants.W_OK | fs.constants.X_OK)
    },
    catch: (error) =>
      new DataDirUnusable({
        message: `SLUICE_DATA_DIR '${dataDir}' cannot be used: ${reasonOf(error)}`
      })
  })
