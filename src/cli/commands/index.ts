/** Every command of the CLI, in the order `--help` lists them. */
import { login, logout, whoami } from "./Auth.js"
import { ingestUrl } from "./IngestUrl.js"
import { insert } from "./Insert.js"
import { query } from "./Query.js"
import { databases, tables } from "./Tables.js"
import { version } from "./Version.js"

export const commands = [
  login,
  logout,
  whoami,
  query,
  insert,
  ingestUrl,
  tables,
  databases,
  version
] as const

export const summaries: ReadonlyArray<readonly [string, string]> = [
  ["login", "Log in (browser approval, --password or --api-key) and keep it in a profile"],
  ["logout", "Forget the profile's credential and end its session"],
  ["whoami", "The profile in use, checked with the server"],
  ["query", "Run read-only SQL: a table at a terminal, TSV into a pipe, --format for raw"],
  ["insert", "Insert JSON/NDJSON files (gzip, zstd), directories or stdin; safe to rerun"],
  ["ingest-url", "Have the server fetch a file by URL and insert it, with its progress"],
  ["tables", "List tables (rows, bytes, created); describe; drop"],
  ["databases", "List, create and delete databases"],
  ["version", "The CLI's version and the server's"]
]
