/**
 * Opening an address in the user's browser: `open` on macOS, `explorer` on Windows,
 * `xdg-open` where there is a display and it is installed. False when none can be used, so
 * the caller prints the address instead.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

const onPath = (command: string) =>
  (process.env.PATH ?? "").split(path.delimiter).some((dir) => {
    try {
      fs.accessSync(path.join(dir, command), fs.constants.X_OK)
      return true
    } catch {
      return false
    }
  })

export const openBrowser = (url: string) => {
  const opener =
    process.platform === "darwin"
      ? "open"
      : process.platform === "win32"
        ? "explorer"
        : (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) && onPath("xdg-open")
          ? "xdg-open"
          : undefined
  if (opener === undefined) return false
  try {
    spawn(opener, [url], { stdio: "ignore", detached: true })
      .on("error", () => {})
      .unref()
    return true
  } catch {
    return false
  }
}
