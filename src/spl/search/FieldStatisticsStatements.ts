/**
 * Running the field statistics (FieldStatistics.ts): the population's `table` of the
 * metadata and the table's fields (StoredFields.ts), compiled by the compiler as the
 * parsed search extended by that command, and aggregated in one statement. When that SQL is over the budget, half the fields are described, then half
 * of those … down to the metadata alone.
 */
import { Effect } from "effect"
import type { CompiledSearch, SearchWindow, SplCompiler } from "../../../domain/SplCompiler.js"
import type { Context } from "effect"
import { SQL_BUDGET } from "../compiler/Budget.js"
import {
  DescribedColumn,
  eventFields,
  FieldRow,
  fieldStatistics,
  fieldStatisticsSql,
  METADATA,
  storedFields
} from "./FieldStatistics.js"
import { populationStage } from "./StageCounts.js"
import { rowsAs, runJson } from "./Statements.js"
import type { Target } from "./Statements.js"

export const statisticsOfFields = (
  compiler: Context.Tag.Service<SplCompiler>,
  target: Target,
  compiled: CompiledSearch,
  window: SearchWindow,
  columns: ReadonlyArray<typeof DescribedColumn.Type>
) =>
  Effect.gen(function* () {
    const stored = storedFields(columns)
    let fields = eventFields(columns)
    const last = populationStage(compiled.stages)
    for (;;) {
      const table = yield* compiler
        .compileFieldTable(compiled.spl, window, stored, last, [...METADATA, ...fields])
        .pipe(Effect.either)
      const sql =
        table._tag === "Right"
          ? fieldStatisticsSql(table.right.unorderedSql, table.right.columns)
          : ""
      if (table._tag === "Right" && (sql.length <= SQL_BUDGET || fields.length === 0)) {
        const result = yield* runJson(target, sql)
        return {
          results: [result],
          fields: fieldStatistics(yield* rowsAs(FieldRow, result))
        }
      }
      if (fields.length === 0 && table._tag === "Left") return yield* table.left
      fields = fields.slice(0, Math.floor(fields.length / 2))
    }
  })
