/**
 * The service as `npm start` runs it, in a process of its own, for benchmarks whose
 * client holds a lot (generated data, results): in one process the client's heap and
 * event loop would be the server's too. Stopped with SIGTERM when the scope closes.
 */
import { spawn } from "node:child_process"
import * as path from "node:path"
import { Effect } from "effect"

export interface ServerProcess {
  readonly url: string
  /** The first start's admin API key. */
  readonly key: string
  readonly pid: number
}

const ROOT = path.join(import.meta.dirname, "../..")

export const startServerProcess = (dataDir: string, env: Readonly<Record<string, string>>) =>
  Effect.acquireRelease(
    Effect.async<ServerProcess, Error>((resume) => {
      const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: ROOT,
        env: {
          ...process.env,
          SLUICE_DATA_DIR: dataDir,
          SLUICE_PORT: "0",
          SLUICE_GRPC_PORT: "0",
          ...env
        },
        stdio: ["ignore", "pipe", "inherit"]
      })
      let output = ""
      child.stdout.setEncoding("utf8")
      child.stdout.on("data", (text: string) => {
        output += text
        const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
        const key = /admin API key:\s+(\S+)/.exec(output)?.[1]
        if (url !== undefined && key !== undefined) {
          child.stdout.removeAllListeners("data")
          child.stdout.resume()
          resume(Effect.succeed({ url, key, pid: child.pid! }))
        }
      })
      child.once("exit", (code) =>
        resume(Effect.fail(new Error(`the server exited (${code}) before it listened:\n${output}`)))
      )
    }),
    (server) =>
      Effect.promise(
        () =>
          new Promise<void>((done) => {
            try {
              process.kill(server.pid, "SIGTERM")
            } catch {
              return done()
            }
            const poll = setInterval(() => {
              try {
                process.kill(server.pid, 0)
              } catch {
                clearInterval(poll)
                done()
              }
            }, 50)
          })
      )
  )
