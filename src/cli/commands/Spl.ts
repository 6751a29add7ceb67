/** `spl SEARCH`: rows, the timeline as bars, the stage funnel; `--fields`, `--explain`. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import type { SplSearchResult } from "../../../domain/api/SplApi.js"
import { withClient } from "../Api.js"
import * as Charts from "../Charts.js"
import * as Funnel from "../Funnel.js"
import { printJson, when } from "../Listing.js"
import { dim, errorLine, line, stdoutIsTTY } from "../Output.js"
import { cancel } from "../QueryStream.js"
import type { Session } from "../Session.js"
import { dataScope, requireToken, resolve, scopeOptions } from "../Session.js"
import * as Table from "../Table.js"

export type SplOutput = "table" | "tsv" | "json"

export const outputOption = Options.choice("format", ["table", "tsv", "json"]).pipe(
  Options.withDescription(
    "table: rows, timeline and funnel (default at a terminal); tsv: rows only (default into a pipe); json: the API's answer"
  ),
  Options.optional
)

export const outputOf = (format: Option.Option<SplOutput>): SplOutput =>
  Option.getOrElse(format, () => (stdoutIsTTY() ? "table" : "tsv"))

const timeOption = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

export const windowOptions = {
  earliest: timeOption("earliest", "Start: epoch seconds, now, or relative as -24h, -7d@d"),
  latest: timeOption("latest", "End (default: now)")
}

const minute = (iso: string) => when(iso).slice(0, 16)

const sections = (result: SplSearchResult, fields: boolean) => {
  const out: Array<string> = []
  const header = result.meta.map((m) => m.name)
  out.push(
    result.data.length === 0
      ? "No results."
      : Table.render(
          header,
          result.data.map((row) => header.map((name) => Table.cell(row[name])))
        )
  )
  const timeline = result.timeline
  if (timeline.length > 0 && timeline.some((b) => b.count > 0))
    out.push(
      "Timeline (events per bucket)",
      Charts.bars(
        timeline.map((b) => b.count),
        minute(timeline[0]!.time),
        minute(timeline[timeline.length - 1]!.time)
      )
    )
  if (result.stages.length > 0)
    out.push(
      "Stages",
      Table.render(["stage", "rows", "kept", "affected"], Funnel.rowsOf(result.stages))
    )
  if (fields && result.field_statistics !== undefined)
    out.push(
      "Fields",
      Table.render(
        ["field", "type", "coverage", "distinct", "top values"],
        result.field_statistics.map((f) => [
          f.field,
          f.type,
          `${(f.coverage * 100).toFixed(1)}%`,
          Table.count(f.distinct),
          f.top_values.map((v) => `${Table.cell(v.value)} (${Table.count(v.count)})`).join(", ")
        ])
      )
    )
  return out.join("\n\n")
}

export interface SearchInput {
  readonly spl: string
  readonly earliest: string | undefined
  readonly latest: string | undefined
  readonly fields: boolean
  readonly explain: boolean
  readonly output: SplOutput
}

/** Runs a search and prints it; Ctrl-C cancels it on the server. */
export const runSearch = (session: Session, input: SearchInput) =>
  Effect.gen(function* () {
    const queryId = crypto.randomUUID()
    const started = performance.now()
    const result = yield* withClient(session, (client) =>
      client.spl.search({
        urlParams: dataScope(session),
        payload: {
          spl: input.spl,
          ...(input.earliest === undefined ? {} : { earliest: input.earliest }),
          ...(input.latest === undefined ? {} : { latest: input.latest }),
          include_field_statistics: input.fields,
          explain: input.explain,
          query_id: queryId
        }
      })
    ).pipe(Effect.onInterrupt(() => cancel(session, queryId)))
    if (input.output === "json") return yield* printJson(result)
    if (result.explain !== undefined) {
      const stages = result.explain.stages.map(
        (s, i) => `-- ${i + 1}. ${Funnel.stageLabel(s)}\n${s.sql}`
      )
      return yield* line([...stages, `-- the whole search\n${result.explain.sql}`].join("\n\n"))
    }
    if (input.output === "tsv") {
      const header = result.meta.map((m) => m.name)
      for (const row of result.data)
        yield* line(Table.tsvLine(header.map((name) => Table.cell(row[name]))))
    } else yield* line(sections(result, input.fields))
    const seconds = ((performance.now() - started) / 1000).toFixed(3)
    yield* errorLine(
      dim(
        `${Table.count(result.rows)} ${result.rows === 1 ? "row" : "rows"}${result.truncated ? " (truncated)" : ""} in ${seconds} s.`
      )
    )
  })

export const spl = Command.make(
  "spl",
  {
    ...scopeOptions,
    ...windowOptions,
    search: Args.text({ name: "search" }).pipe(Args.withDescription("The SPL search")),
    fields: Options.boolean("fields").pipe(
      Options.withDescription("Also field statistics: type, coverage, distinct, top values")
    ),
    explain: Options.boolean("explain").pipe(
      Options.withDescription("Print each stage's compiled SQL; runs nothing")
    ),
    format: outputOption
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      yield* requireToken(session)
      yield* runSearch(session, {
        spl: flags.search,
        earliest: Option.getOrUndefined(flags.earliest),
        latest: Option.getOrUndefined(flags.latest),
        fields: flags.fields,
        explain: flags.explain,
        output: outputOf(flags.format)
      })
    })
).pipe(
  Command.withDescription(
    "Search events with SPL: rows, the timeline and the stage funnel. Example: sluice spl 'status>=500 | stats count by host' --earliest -24h"
  )
)
