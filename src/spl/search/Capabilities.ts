/**
 * The language manifest of `GET /v1/spl/capabilities`, read from the
 * compiler's own registries (commands, eval functions, stats functions, time units,
 * built-in fields, limits), so it lists what the compiler has and nothing else. The
 * grammar's operators and keywords live in the generated parser; they are listed here
 * once, and test/spl/searchCapabilities.test.ts compiles each of them.
 */
import { SplCapabilities, SplCommand } from "../../../domain/api/SplApi.js"
import { SQL_BUDGET } from "../compiler/Budget.js"
import { COMMANDS } from "../compiler/Commands.js"
import { MAX_COMMANDS } from "../compiler/Compile.js"
import { MAX_DEPTH } from "../compiler/Depth.js"
import { FUNCTIONS } from "../compiler/Functions.js"
import { MAX_NESTING, MAX_SPL_LENGTH } from "../compiler/Parse.js"
import { eventRows } from "../compiler/Rows.js"
import { AGGREGATES } from "../compiler/StatsCommand.js"
import { TIME_UNITS } from "../compiler/TimeModifier.js"
import { MAX_DESCRIBED_FIELDS, TOP_VALUES } from "./FieldStatistics.js"
import { MEASURED_STAGES, STAGE_ROW_CAP } from "./StageCounts.js"
import { MAX_TIMELINE_BUCKETS } from "./Timeline.js"

/** Comparison, arithmetic, concatenation and boolean operators of search and where/eval. */
export const OPERATORS = [
  "=",
  "==",
  "!=",
  "<",
  "<=",
  ">",
  ">=",
  "IN",
  "+",
  "-",
  "*",
  "/",
  "%",
  ".",
  "AND",
  "OR",
  "NOT"
] as const

export const KEYWORDS = ["AND", "OR", "NOT", "IN", "BY", "AS", "limit"] as const

/** Kinds of literal: `"quoted text"`, numbers, `*` in search values, `'quoted field names'`. */
export const LITERALS = ["string", "number", "wildcard", "field_name"] as const

/** Rows of `data` and `raw_events` a search returns at most (`truncated` beyond). */
export const RESULT_ROWS = STAGE_ROW_CAP

export const splCapabilities = new SplCapabilities({
  // The base search is the only command that may stand first (without a `|`).
  commands: COMMANDS.map(
    (name) =>
      new SplCommand({ name, positions: name === "search" ? ["first", "later"] : ["later"] })
  ),
  functions: [...new Set<string>([...FUNCTIONS, ...AGGREGATES])].sort(),
  operators: [...OPERATORS],
  keywords: [...KEYWORDS],
  literals: [...LITERALS],
  timechart_span_units: [...TIME_UNITS],
  builtin_fields: eventRows.columns.map((column) => column.name),
  limits: {
    result_rows: RESULT_ROWS,
    stage_output_rows: STAGE_ROW_CAP,
    stages_measured: MEASURED_STAGES,
    field_statistics_top_values: TOP_VALUES,
    field_statistics_fields: MAX_DESCRIBED_FIELDS,
    timeline_buckets: MAX_TIMELINE_BUCKETS,
    sql_bytes: SQL_BUDGET,
    commands: MAX_COMMANDS,
    spl_characters: MAX_SPL_LENGTH,
    parenthesis_nesting: MAX_NESTING,
    expression_depth: MAX_DEPTH
  }
})
