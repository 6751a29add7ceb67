/**
 * The SPL compiler: SPL text and a time window in, a plan
 * of stages and ClickHouse SQL over `spl_events` out. Pure: no engine, no I/O, so a
 * search can be explained, checked and costed before anything runs.
 *
 * The SQL names `spl_events` unqualified (the statement runs in the selected database).
 * SPL text reaches it only as literals quoted by the one quoting module.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { SplRefused } from "./Errors.js"

/** The search's time bounds in epoch milliseconds: earliest inclusive, latest exclusive. */
export const SearchWindow = Schema.Struct({
  earliest: Schema.optional(Schema.Int),
  latest: Schema.optional(Schema.Int)
})
export type SearchWindow = typeof SearchWindow.Type

/** One command of the pipeline, the base search being the first (`search`). */
export class CompiledStage extends Schema.Class<CompiledStage>("CompiledStage")({
  /** The command's name as the subset knows it (`search`, `where`, `stats` …). */
  command: Schema.String,
  /** The command's text as written, arguments included. */
  expression: Schema.String,
  /** 0-based character offset of the command in the SPL text. */
  position: Schema.Int,
  /** SQL of the pipeline up to and including this stage: its rows are the stage's output. */
  sql: Schema.String
}) {}

/** A compiled search: its stages and the SQL of the whole pipeline. */
export class CompiledSearch extends Schema.Class<CompiledSearch>("CompiledSearch")({
  spl: Schema.String,
  stages: Schema.Array(CompiledStage),
  /** The whole search; equal to the last stage's `sql`. */
  sql: Schema.String,
  /**
   * The whole search's rows without the final ordering (a `head` or `sort` limit still
   * applies): what an aggregate over the rows reads, with no sort to pay for.
   */
  unorderedSql: Schema.String,
  /** The result's columns, in order. */
  columns: Schema.Array(Schema.String),
  /** `statistics` once a `stats` or `table` made rows of results; `events` before. */
  resultKind: Schema.Literal("events", "statistics"),
  /** The window the search covers: the requested one, with `earliest=`/`latest=` of the text applied. */
  window: SearchWindow,
  /**
   * Set when the search ends in a timechart split by a field: its rows are one per time
   * bucket and series (`_time`, `split` holding the series name, `value`); Splunk shows
   * one column per series, which the rows pivot into.
   */
  series: Schema.optional(Schema.Struct({ split: Schema.String, value: Schema.String }))
}) {}

export class SplCompiler extends Context.Tag("sluice/SplCompiler")<
  SplCompiler,
  {
    /**
     * Compiles `spl` over `window`; anything outside the subset is `SplRefused`.
     * `earliest=`/`latest=` in the base search replace the window's bounds, resolved
     * against the `Clock` (the search's start time, which `now()` also reads).
     * `storedFields` are the fields the events hold (the table's columns for their
     * leaf paths): wildcards in `fields`, `table`, `rename` and `stats … by` match them
     * besides the fields a stage names.
     */
    readonly compile: (
      spl: string,
      window: SearchWindow,
      storedFields?: ReadonlyArray<string>
    ) => Effect.Effect<CompiledSearch, SplRefused>
    /**
     * The rows field statistics describe: `spl`'s stages up to `population` (0 being the
     * base search alone) followed by `table` of `fields`, the parsed search extended by
     * that command.
     */
    readonly compileFieldTable: (
      spl: string,
      window: SearchWindow,
      storedFields: ReadonlyArray<string>,
      population: number,
      fields: ReadonlyArray<string>
    ) => Effect.Effect<CompiledSearch, SplRefused>
  }
>() {}
