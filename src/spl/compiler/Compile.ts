/**
 * A pipeline to SQL: the base search over `spl_events` within the window, then one
 * stage per command, each selecting from the one before. A stage's own SQL keeps the
 * columns later stages need; `output` turns it into the rows a user sees (the visible
 * fields, in the rows' order).
 */
import { CompiledSearch, CompiledStage } from "../../../domain/SplCompiler.js"
import type { SearchWindow } from "../../../domain/SplCompiler.js"
import type { Command, Pipeline } from "./Ast.js"
import { SQL_BUDGET } from "./Budget.js"
import { exprDepth, MAX_DEPTH, searchDepth } from "./Depth.js"
import { parsePipeline } from "./Parse.js"
import { refuse } from "./Refusal.js"
import { dedup } from "./DedupCommand.js"
import { evaluate, head, search, sort, where } from "./RowCommands.js"
import { SPL_EVENTS_TABLE } from "../../../domain/SplEvent.js"
import { eventRows, extractField, extractNumber, ident, selectCarried } from "./Rows.js"
import type { JsonFields, Rows } from "./Rows.js"
import { Refusal } from "./Refusal.js"
import { fields, rename, table } from "./ShapeCommands.js"
import { flatStage, namesFrom } from "./Stage.js"
import { output } from "./Output.js"
import type { Names, Stage } from "./Stage.js"
import { stats } from "./StatsCommand.js"
import { searchCondition } from "./SearchSql.js"
import { searchTime } from "./SearchTime.js"
import { seriesOf, timechart } from "./TimechartCommand.js"

export const MAX_COMMANDS = 64

/**
 * The compiler builds its results from values its types already check: validating them
 * again in the Schema classes' constructors cost every search time (as a request meets
 * it: the code not yet optimised, caches cold), a small but real share of a fast
 * search.
 */
const TYPED = { disableValidation: true }

/** Commands after which the rows are results, not events. */
const ROW_MAKERS: ReadonlyArray<string> = ["stats", "table", "timechart"]

const windowCondition = (window: SearchWindow) => {
  const bound = (ms: number) => `fromUnixTimestamp64Milli(toInt64(${Math.trunc(ms)}), 'UTC')`
  return [
    ...(window.earliest === undefined ? [] : [`_time >= ${bound(window.earliest)}`]),
    ...(window.latest === undefined ? [] : [`_time < ${bound(window.latest)}`])
  ]
}

const expressionsOf = (command: Command) => {
  switch (command.command) {
    case "where":
      return [exprDepth(command.expression)]
    case "eval":
      return command.assignments.map((a) => exprDepth(a.expression))
    case "search":
      return [searchDepth(command.expression)]
    default:
      return []
  }
}

/**
 * A stage's rows as the next command reads them. The numbers read beside the JSON fields'
 * text (`JsonFields.numbers`) are computed where `spl_events` is read, for every event
 * passing its WHERE: worth it while the rows are still those events, not once a stage
 * kept fewer (a LIMIT, LIMIT BY, a grouping), where parsing the few rows' text is cheaper.
 */
const readable = (stage: Stage): Stage =>
  (stage.flat !== undefined && stage.flat.tail === undefined) || stage.rows.json === undefined
    ? stage
    : { ...stage, rows: { ...stage.rows, json: { ...stage.rows.json, numbers: new Map() } } }

const step = (names: Names, stage: Stage, command: Command, window: SearchWindow): Stage => {
  const input = readable(stage)
  if (expressionsOf(command).some((depth) => depth > MAX_DEPTH))
    refuse(command.command, command.at, `${command.command} nests deeper than ${MAX_DEPTH} levels`)
  switch (command.command) {
    case "search":
      return search(input, command)
    case "where":
      return where(names, input, command)
    case "eval":
      return evaluate(names, input, command)
    case "stats":
      return stats(names, input, command)
    case "sort":
      return sort(names, input, command)
    case "head":
      return head(input, command)
    case "dedup":
      return dedup(names, input, command)
    case "fields":
      return fields(names, input, command)
    case "table":
      return table(names, input, command)
    case "rename":
      return rename(names, input, command)
    case "timechart":
      return timechart(names, input, command, window)
    case "unknown":
      return refuse(command.name, command.at, `the command ${command.name} is not in the subset`)
  }
}

const checkWindow = (window: SearchWindow) => {
  for (const bound of [window.earliest, window.latest])
    if (bound !== undefined && !(Math.abs(bound) <= 8.64e15))
      refuse("search", 0, "the time window's bounds must be epoch milliseconds")
}

/** The table's fields `json` extracts, named for the columns that carry them. */
const extractions = (json: JsonFields) =>
  [
    ...[...json.columns].map(([name, sql]) => `${extractField(name)} AS ${ident(sql)}`),
    ...[...json.numbers].map(([name, sql]) => `${extractNumber(name)} AS ${ident(sql)}`)
  ].join(", ")

/**
 * `now` is when the search started (epoch ms): in-text time modifiers and `now()` read it.
 * A first compilation learns which fields of the stored JSON the search reads; the
 * second extracts just those where `spl_events` is read (`JsonFields`). Should that one
 * not fit the SQL budget, the first is the answer.
 */
export const compileSearch = (
  spl: string,
  requested: SearchWindow,
  now: number,
  stored: ReadonlyArray<string> = []
): CompiledSearch => {
  checkWindow(requested)
  // Parsed once for both compilations: the parser is a good part of a compilation's time.
  return compileParsed(spl, parsePipeline(spl), requested, now, stored)
}

/**
 * The rows that describe a search's population (its stages up to `population`, 0 being
 * the base search alone) with the `fields` of `table` appended: the parsed search
 * extended by a command, never text spliced into the search.
 */
export const compileTable = (
  spl: string,
  requested: SearchWindow,
  now: number,
  stored: ReadonlyArray<string>,
  population: number,
  fields: ReadonlyArray<string>
): CompiledSearch => {
  checkWindow(requested)
  const pipeline = parsePipeline(spl)
  const table: Command = {
    command: "table",
    fields,
    at: spl.length,
    text: `table ${fields.join(", ")}`
  }
  return compileParsed(
    spl,
    { search: pipeline.search, commands: [...pipeline.commands.slice(0, population), table] },
    requested,
    now,
    stored
  )
}

const compileParsed = (
  spl: string,
  pipeline: Pipeline,
  requested: SearchWindow,
  now: number,
  stored: ReadonlyArray<string>
): CompiledSearch => {
  const first: JsonFields = {
    columns: new Map(),
    numbers: new Map(),
    read: new Set(),
    whole: true,
    stored
  }
  const carrying = compileWith(spl, pipeline, requested, now, first)
  // No field read: the JSON carried along is never read either (the engine prunes it).
  if (first.read.size === 0) return carrying
  const second: JsonFields = {
    columns: new Map([...first.read].map((name, i) => [name, `__f${i}`])),
    numbers: new Map([...first.read].map((name, i) => [name, `__n${i}`])),
    read: new Set(),
    whole: false,
    stored
  }
  try {
    const extracting = compileWith(spl, pipeline, requested, now, second)
    return [...second.read].every((name) => second.columns.has(name)) ? extracting : carrying
  } catch (error) {
    if (error instanceof Refusal) return carrying
    throw error
  }
}

const compileWith = (
  spl: string,
  pipeline: Pipeline,
  requested: SearchWindow,
  now: number,
  json: JsonFields
): CompiledSearch => {
  if (pipeline.commands.length > MAX_COMMANDS)
    refuse("search", 0, `the search has more than ${MAX_COMMANDS} commands`)
  if (pipeline.search !== null && searchDepth(pipeline.search.expression) > MAX_DEPTH)
    refuse("search", 0, `search nests deeper than ${MAX_DEPTH} levels`)
  const names = namesFrom(now)
  const { expression, window } =
    pipeline.search === null
      ? { expression: null, window: requested }
      : searchTime(pipeline.search.expression, requested, now, pipeline.search.at)
  checkWindow(window)
  const rows: Rows = { ...eventRows, json }
  // The condition reads the extracted fields by their aliases in the same SELECT.
  const conditions = [
    ...windowCondition(window),
    ...(expression === null ? [] : [searchCondition(rows, expression, 0, true)])
  ]
  const base = flatStage(rows, {
    with: extractions(json),
    select: selectCarried(rows),
    from: ident(SPL_EVENTS_TABLE),
    where: conditions
  })
  const stages: Array<CompiledStage> = []
  const record = (stage: Stage, command: string, text: string, position: number) => {
    const sql = output(stage)
    if (sql.length > SQL_BUDGET)
      refuse(command, position, `the search compiles to more than ${SQL_BUDGET} bytes of SQL`)
    stages.push(new CompiledStage({ command, expression: text.trim(), position, sql }, TYPED))
  }
  record(base, "search", pipeline.search?.text ?? "", pipeline.search?.at ?? 0)
  let current = base
  for (const command of pipeline.commands) {
    current = step(names, current, command, window)
    record(current, command.command, command.text, command.at)
  }
  const last = stages[stages.length - 1]!
  return new CompiledSearch(
    {
      spl,
      stages,
      sql: last.sql,
      unorderedSql: output(current, false),
      columns: current.rows.columns.map((c) => c.name),
      resultKind: pipeline.commands.some((c) => ROW_MAKERS.includes(c.command))
        ? "statistics"
        : "events",
      window,
      ...seriesOf(pipeline.commands[pipeline.commands.length - 1])
    },
    TYPED
  )
}
