/** Every command of the CLI, in the order `--help` lists them. */
import { login, logout, whoami } from "./Auth.js"
import { insert } from "./Insert.js"
import { query } from "./Query.js"
import { version } from "./Version.js"

export const commands = [login, logout, whoami, query, insert, version] as const

export const summaries: ReadonlyArray<readonly [string, string]> = [
  ["login", "Log in (browser approval, --password or --api-key) and keep it in a profile"],
  ["logout", "Forget the profile's credential and end its session"],
  ["whoami", "The profile in use, checked with the server"],
  ["query", "Run read-only SQL: a table at a terminal, TSV into a pipe, --format for raw"],
  ["insert", "Insert JSON/NDJSON files (gzip, zstd), directories or stdin; safe to rerun"],
  ["version", "The CLI's version and the server's"]
]
