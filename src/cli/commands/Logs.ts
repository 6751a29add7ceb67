/** `logs`: the request log with every filter of `GET /v1/logs`, and `--follow`. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { DateTime, Effect, Option, Schedule } from "effect"
import type { LogEntry, LogLevel, LogSource } from "../../../domain/api/LogsApi.js"
import { withClient } from "../Api.js"
import { badUsage } from "../CliError.js"
import { contract } from "../Contract.js"
import * as Duration from "../Duration.js"
import { when } from "../Listing.js"
import { checked } from "../Names.js"
import { line } from "../Output.js"
import type { Session } from "../Session.js"
import { dataScope, requireToken, resolve, scopeOptions } from "../Session.js"

const text = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)
const int = (name: string, description: string) =>
  Options.integer(name).pipe(Options.withDescription(description), Options.optional)

const list = (text: Option.Option<string>) =>
  Option.map(text, (t) =>
    t
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== "")
  )

const SOURCES = ["ui", "cli", "api"] as const satisfies ReadonlyArray<LogSource>
const LEVELS = ["success", "warning", "error"] as const satisfies ReadonlyArray<LogLevel>

const oneOf = <A extends string>(flag: string, allowed: ReadonlyArray<A>, values: Array<string>) =>
  values.every((v): v is A => (allowed as ReadonlyArray<string>).includes(v))
    ? Effect.succeed(values as ReadonlyArray<A>)
    : Effect.fail(badUsage(`--${flag} takes ${allowed.join(", ")} (comma-separated).`))

const instant = (flag: string, text: string) =>
  Option.match(DateTime.make(text), {
    onNone: () =>
      Effect.fail(
        badUsage(
          `--${flag} ${JSON.stringify(text)} is not a time.`,
          "Example: 2026-01-31T12:00:00Z"
        )
      ),
    onSome: (t) => Effect.succeed(DateTime.toUtc(t))
  })

/** One entry as a line: when, status, method, path, duration, source, and the error if any. */
export const entryLine = (e: LogEntry) =>
  [
    when(e.created_at).padEnd(23),
    String(e.status_code),
    e.method.padEnd(6),
    e.path + (e.url_query === "" ? "" : `?${e.url_query}`),
    `${e.duration_ms} ms`,
    e.source,
    e.database === "" ? "" : `db=${e.database}`,
    e.error_message === "" ? "" : `— ${e.error_message}`
  ]
    .filter((part) => part !== "")
    .join("  ")

const filterOptions = {
  since: text("since", "Requests of the last duration (e.g. 15m, 2h, 7d)"),
  start: text("start", "From this time (ISO 8601), inclusive"),
  end: text("end", "Until this time (ISO 8601), inclusive"),
  limit: Options.integer("limit").pipe(
    Options.withAlias("n"),
    Options.withDescription("At most this many entries (1-200)"),
    Options.withDefault(50)
  ),
  search: text(
    "search",
    "Free text and tokens such as status:error, origin:cli, type:insert, table:a"
  ),
  methods: text("method", "Methods, comma-separated (GET,POST)"),
  statuses: text("status", "Status codes or classes, comma-separated (404,5xx)"),
  sources: text("source", "ui, cli or api, comma-separated"),
  levels: text("level", "success, warning or error, comma-separated"),
  userAgent: text("user-agent", "This exact user agent"),
  host: text("host", "Host header containing this text"),
  paths: text("path", "Exact paths, comma-separated (/v1/query)"),
  minDuration: int("min-duration", "At least this many milliseconds"),
  maxDuration: int("max-duration", "At most this many milliseconds"),
  logDatabases: text("log-database", "Requests naming these databases, comma-separated"),
  follow: Options.boolean("follow").pipe(
    Options.withAlias("f"),
    Options.withDescription("Keep printing new requests as they are logged (Ctrl-C stops)")
  ),
  json: Options.boolean("json").pipe(Options.withDescription("Each entry as a JSON line"))
}

type Flags = {
  readonly [K in keyof typeof filterOptions]: (typeof filterOptions)[K] extends Options.Options<
    infer A
  >
    ? A
    : never
}

const paramsOf = (flags: Flags) =>
  Effect.gen(function* () {
    if (flags.limit < 1 || flags.limit > 200)
      return yield* Effect.fail(badUsage("--limit is between 1 and 200."))
    const since = Option.isSome(flags.since)
      ? yield* Duration.seconds("since", flags.since.value)
      : undefined
    const start =
      since !== undefined
        ? DateTime.unsafeMake(Date.now() - since * 1000)
        : Option.isSome(flags.start)
          ? yield* instant("start", flags.start.value)
          : undefined
    const end = Option.isSome(flags.end) ? yield* instant("end", flags.end.value) : undefined
    const statuses = Option.isSome(flags.statuses)
      ? yield* checked((yield* contract).StatusCodes, flags.statuses.value, {
          "": "--status"
        })
      : undefined
    const sources = Option.isSome(flags.sources)
      ? yield* oneOf("source", SOURCES, Option.getOrThrow(list(flags.sources)))
      : undefined
    const levels = Option.isSome(flags.levels)
      ? yield* oneOf("level", LEVELS, Option.getOrThrow(list(flags.levels)))
      : undefined
    const optional = <K extends string, V>(key: K, value: V | undefined) =>
      (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
    return {
      limit: flags.limit,
      offset: 0,
      ...optional("start_time", start),
      ...optional("end_time", end),
      ...optional("search", Option.getOrUndefined(flags.search)),
      ...optional(
        "methods",
        Option.getOrUndefined(list(flags.methods))?.map((m) => m.toUpperCase())
      ),
      ...optional("status_codes", statuses),
      ...optional("sources", sources),
      ...optional("levels", levels),
      ...optional("user_agent", Option.getOrUndefined(flags.userAgent)),
      ...optional("host", Option.getOrUndefined(flags.host)),
      ...optional("paths", Option.getOrUndefined(list(flags.paths))),
      ...optional("min_duration_ms", Option.getOrUndefined(flags.minDuration)),
      ...optional("max_duration_ms", Option.getOrUndefined(flags.maxDuration)),
      ...optional("log_databases", Option.getOrUndefined(list(flags.logDatabases)))
    }
  })

type Params = Effect.Effect.Success<ReturnType<typeof paramsOf>>

const page = (session: Session, params: Params) =>
  withClient(session, (client) =>
    client.logs.list({ urlParams: { ...dataScope(session), ...params } })
  )

/** Oldest first, as a terminal reads a log. */
const print = (entries: ReadonlyArray<LogEntry>, json: boolean) =>
  Effect.forEach([...entries].reverse(), (e) => line(json ? JSON.stringify(e) : entryLine(e)), {
    discard: true
  })

/** Polls for entries newer than the newest seen; entries of the same instant are told apart by id. */
const follow = (session: Session, params: Params, first: ReadonlyArray<LogEntry>, json: boolean) =>
  Effect.gen(function* () {
    let seen = new Set(first.map((e) => e.id))
    let since =
      first[0] === undefined
        ? DateTime.unsafeMake(Date.now())
        : DateTime.unsafeMake(first[0].created_at)
    const poll = Effect.gen(function* () {
      const { logs } = yield* page(session, { ...params, limit: 200, start_time: since })
      const fresh = logs.filter((e) => !seen.has(e.id))
      yield* print(fresh, json)
      if (logs[0] !== undefined) {
        since = DateTime.unsafeMake(logs[0].created_at)
        seen = new Set(logs.filter((e) => e.created_at === logs[0]!.created_at).map((e) => e.id))
      }
    })
    return yield* Effect.repeat(poll, Schedule.spaced("1 second"))
  })

export const logs = Command.make("logs", { ...scopeOptions, ...filterOptions }, (flags) =>
  Effect.gen(function* () {
    const session = yield* resolve(flags)
    yield* requireToken(session)
    const params = yield* paramsOf(flags)
    const first = yield* page(session, params)
    if (flags.json && !flags.follow) return yield* line(JSON.stringify(first, null, 2))
    yield* print(first.logs, flags.json)
    if (flags.follow) yield* follow(session, params, first.logs, flags.json)
    else if (first.has_more)
      process.stderr.write(`(more: raise --limit or narrow with --since/--start)\n`)
  })
).pipe(
  Command.withDescription(
    "The request log, oldest first, with every filter; --follow tails it. Example: sluice logs --since 1h --level error --follow"
  )
)
