/**
 * The CLI at a real terminal: tmux (Debian's) runs it in a pane of its own server
 * (a socket in a temporary folder), keys are sent as a person types them, and the screen
 * is read back until what is expected appears.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { bin } from "./cliProcess.js"

export interface Terminal {
  /** Runs the CLI with these arguments in a new window; `[exit N]` is shown when it ends. */
  readonly run: (name: string, args: ReadonlyArray<string>) => void
  /** Text typed as it is (a trailing `;` included), without Enter. */
  readonly type: (name: string, text: string) => void
  /** Keys by tmux's names: Enter, Up, Tab, C-c, C-d. */
  readonly press: (name: string, ...keys: ReadonlyArray<string>) => void
  readonly screen: (name: string) => string
  /** Polls the screen until `predicate` holds; fails with the screen after `timeoutMs`. */
  readonly waitFor: (
    name: string,
    predicate: (screen: string) => boolean,
    timeoutMs?: number
  ) => Promise<string>
  readonly close: () => void
}

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`

export const terminal = (env: Record<string, string>): Terminal => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-tmux-"))
  const socket = path.join(dir, "socket")
  const tmux = (...args: ReadonlyArray<string>) =>
    execFileSync("tmux", ["-S", socket, ...args], { encoding: "utf8" })
  const variables = Object.entries({ NO_COLOR: "1", TERM: "xterm", ...env })
    .map(([name, value]) => `${name}=${quote(value)}`)
    .join(" ")
  let started = false
  const target = (name: string) => `cli:${name}`
  const screen = (name: string) =>
    tmux("capture-pane", "-p", "-J", "-S", "-200", "-t", target(name))
  return {
    run: (name, args) => {
      const command = `env ${variables} ${quote(process.execPath)} ${quote(bin)} ${args.map(quote).join(" ")}; echo "[exit $?]"; exec cat`
      if (started) tmux("new-window", "-d", "-n", name, command)
      else tmux("new-session", "-d", "-s", "cli", "-n", name, "-x", "160", "-y", "50", command)
      started = true
    },
    // tmux reads a `;` ending an argument as the end of its own command: escaped.
    type: (name, text) =>
      void tmux("send-keys", "-t", target(name), "-l", text.replace(/;$/, "\\;")),
    press: (name, ...keys) => void tmux("send-keys", "-t", target(name), ...keys),
    screen,
    waitFor: async (name, predicate, timeoutMs = 30_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const text = screen(name)
        if (predicate(text)) return text
        if (Date.now() > deadline) throw new Error(`screen never matched:\n${text}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    close: () => {
      try {
        tmux("kill-server")
      } catch {
        // Already gone.
      }
      fs.rmSync(dir, { recursive: true, force: true })
    }
  }
}
