/**
 * The interactive shell's history: one statement a line in
 * `$XDG_STATE_HOME/sluice/history` (else `~/.local/state/sluice/`), mode 0600 since
 * statements can hold literals people would not show, newest last, the last 1,000 kept.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const SIZE = 1000

export const historyPath = () => {
  const xdg = process.env.XDG_STATE_HOME
  return path.join(
    xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".local", "state"),
    "sluice",
    "history"
  )
}

/** Newest first, as readline keeps it. */
export const load = (): Array<string> => {
  try {
    const file = historyPath()
    const lines = fs
      .readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l !== "")
    const kept = lines.slice(-SIZE)
    if (lines.length > 2 * SIZE) fs.writeFileSync(file, `${kept.join("\n")}\n`, { mode: 0o600 })
    return kept.reverse()
  } catch {
    return []
  }
}

/** Appends a statement; a file that cannot be written leaves the shell working without it. */
export const append = (statement: string) => {
  try {
    const file = historyPath()
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 })
    fs.appendFileSync(file, `${statement.replace(/\s*\n\s*/g, " ")}\n`, { mode: 0o600 })
    fs.chmodSync(file, 0o600)
  } catch {
    // No history is better than no shell.
  }
}
