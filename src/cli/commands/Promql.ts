/** `promql QUERY`: an instant query as a table, or `--range` as a line chart. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import * as Charts from "../Charts.js"
import { failure } from "../CliError.js"
import * as Duration from "../Duration.js"
import * as Http from "../Http.js"
import { printJson, when } from "../Listing.js"
import { line } from "../Output.js"
import { dataScope, requireToken, resolve, scopeOptions } from "../Session.js"
import * as Table from "../Table.js"

type Sample = readonly [number, string]
interface Series {
  readonly metric: Readonly<Record<string, string>>
  readonly value?: Sample
  readonly values?: ReadonlyArray<Sample>
}

export const seriesName = (metric: Readonly<Record<string, string>>, query: string) => {
  const { __name__: name, ...labels } = metric
  if (name === undefined && Object.keys(labels).length === 0) return query
  const pairs = Object.entries(labels).map(([k, v]) => `${k}=${JSON.stringify(v)}`)
  return `${name ?? ""}${pairs.length === 0 && name !== undefined ? "" : `{${pairs.join(", ")}}`}`
}

interface Answer {
  readonly status?: string
  readonly data?: unknown
  readonly errorType?: string
  readonly error?: string
  readonly warnings?: ReadonlyArray<string>
}

const at = (seconds: number) => when(new Date(seconds * 1000).toISOString())

const instantTable = (data: { resultType?: string; result?: unknown }, query: string) => {
  if (data.resultType === "scalar" || data.resultType === "string") {
    const [time, value] = data.result as Sample
    return Table.render(["value", "time"], [[value, at(time)]])
  }
  const result = (data.result ?? []) as ReadonlyArray<Series>
  if (result.length === 0) return "No series."
  return Table.render(
    ["series", "value", "time"],
    result.map((s) => [seriesName(s.metric, query), s.value?.[1] ?? "", at(s.value?.[0] ?? 0)])
  )
}

const rangeChart = (data: { result?: unknown }, query: string) => {
  const result = (data.result ?? []) as ReadonlyArray<Series>
  if (result.length === 0) return "No series."
  return Charts.timeLines(
    result.flatMap((s) =>
      (s.values ?? []).map(([time, value]) => ({
        series: seriesName(s.metric, query),
        time,
        value: Number(value)
      }))
    ),
    (seconds) => at(seconds).slice(0, 16)
  )
}

export const promql = Command.make(
  "promql",
  {
    ...scopeOptions,
    query: Args.text({ name: "query" }).pipe(Args.withDescription("The PromQL expression")),
    range: Options.text("range").pipe(
      Options.withDescription("Evaluate over this much time up to now (e.g. 1h): a line chart"),
      Options.optional
    ),
    step: Options.text("step").pipe(
      Options.withDescription("Resolution of --range (default: the range / 60)"),
      Options.optional
    ),
    format: Options.choice("format", ["table", "json"]).pipe(
      Options.withDescription("json: the API's answer as it is"),
      Options.withDefault("table")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      yield* requireToken(session)
      const scope = dataScope(session)
      const range = Option.isSome(flags.range)
        ? yield* Duration.seconds("range", flags.range.value)
        : undefined
      const step = Option.isSome(flags.step)
        ? yield* Duration.seconds("step", flags.step.value)
        : undefined
      const now = Date.now() / 1000
      // Read raw: PromQL refusals answer Prometheus' own error shape, which the contract's
      // error schemas do not decode.
      const response = yield* Http.send(session, {
        method: "GET",
        path: `/metrics-compat/api/v1/${range === undefined ? "query" : "query_range"}`,
        query: {
          ...scope,
          query: flags.query,
          ...(range === undefined
            ? {}
            : {
                start: String(now - range),
                end: String(now),
                step: String(step ?? Math.max(1, Math.round(range / 60)))
              })
        }
      })
      const text = yield* Http.readText(response.body)
      const answer = yield* Effect.try({
        try: () => JSON.parse(text) as Answer,
        catch: () => Http.errorOf(response.status, text, session)
      })
      if (answer.status === undefined)
        return yield* Effect.fail(Http.errorOf(response.status, text, session))
      if (flags.format === "json") return yield* printJson(answer)
      if (answer.status !== "success")
        return yield* Effect.fail(
          failure(`${answer.errorType ?? "error"}: ${answer.error ?? "the query failed"}.`)
        )
      const data = (answer.data ?? {}) as { resultType?: string; result?: unknown }
      yield* line(
        range === undefined ? instantTable(data, flags.query) : rangeChart(data, flags.query)
      )
      for (const warning of answer.warnings ?? []) process.stderr.write(`warning: ${warning}\n`)
    })
).pipe(
  Command.withDescription(
    "Run PromQL: an instant query as a table, --range as a line chart. Example: sluice promql 'rate(http_requests_total[5m])' --range 1h --step 1m"
  )
)
