/**
 * Global setup of every project: the run's temporary files (the servers' data
 * directories, chDB's `:memory:` directory, Prometheus's) go into one directory, removed
 * when the run ends. Vitest stops its worker processes without their `exit` event, which
 * a test process's own cleanup (`freshDataDir`) waits for: a whole run used to leave
 * ~11 GB in the temp directory.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const MADE = "SLUICE_TESTS_TMPDIR"

export default function setup() {
  // One run of several projects: the first project's setup makes the directory.
  if (process.env[MADE] !== undefined) return
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-tests-"))
  const previous = process.env.TMPDIR
  // Read by `os.tmpdir()` in the test processes started after this, and their children.
  process.env.TMPDIR = root
  process.env[MADE] = root
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    delete process.env[MADE]
    // An engine worker may still be stopping: a few retries, and what is left is left.
    fs.rmSync(root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 })
  }
}
