/** Every command of the CLI, in the order `--help` lists them. */
import { apps } from "./Apps.js"
import { login, logout, whoami } from "./Auth.js"
import { clusters } from "./Clusters.js"
import { ingestUrl } from "./IngestUrl.js"
import { insert } from "./Insert.js"
import { keys } from "./Keys.js"
import { logs } from "./Logs.js"
import { members } from "./Members.js"
import { open } from "./Open.js"
import { organizations } from "./Organizations.js"
import { promql } from "./Promql.js"
import { query } from "./Query.js"
import { savedSearches } from "./SavedSearches.js"
import { shell } from "./Shell.js"
import { spl } from "./Spl.js"
import { databases, tables } from "./Tables.js"
import { version } from "./Version.js"

export const commands = [
  login,
  logout,
  whoami,
  query,
  shell,
  insert,
  ingestUrl,
  tables,
  databases,
  spl,
  savedSearches,
  promql,
  logs,
  keys,
  clusters,
  apps,
  organizations,
  members,
  open,
  version
] as const

export const summaries: ReadonlyArray<readonly [string, string]> = [
  ["login", "Log in (browser approval, --password or --api-key) and keep it in a profile"],
  ["logout", "Forget the profile's credential and end its session"],
  ["whoami", "The profile in use, checked with the server"],
  ["query", "Run read-only SQL: a table at a terminal, TSV into a pipe, --format for raw"],
  ["shell", "Interactive SQL: multi-line statements ending in ;, history, Tab completion"],
  ["insert", "Insert JSON/NDJSON files (gzip, zstd), directories or stdin; safe to rerun"],
  ["ingest-url", "Have the server fetch a file by URL and insert it, with its progress"],
  ["tables", "List tables (rows, bytes, created); describe; drop"],
  ["databases", "List, create and delete databases"],
  ["spl", "Search events with SPL: rows, timeline, stage funnel, --fields, --explain"],
  ["saved-searches", "List, show, create, update, delete and run saved SPL searches"],
  ["promql", "PromQL: an instant table, or --range as a line chart"],
  ["logs", "The request log with every filter; --follow tails it"],
  ["keys", "List API keys, create one (its token printed once), delete one"],
  ["clusters", "List, show, create (--size 2x8), update, stop, resume, delete; --wait"],
  ["apps", "List, install and uninstall the cluster's apps"],
  ["organizations", "Your organizations: list, create, rename, delete"],
  ["members", "The organization's members: list, add (or invite), role, remove"],
  ["open", "The console's page for the profile's scope, in the browser (--print)"],
  ["version", "The CLI's version and the server's"]
]
