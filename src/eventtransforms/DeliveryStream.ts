/**
 * `delivery-stream`: a batch's records through the decoding rules (DeliveryStreamRecord),
 * every row given the stream's common attributes. All records are decoded before any
 * row is inserted, so one bad record fails the batch and inserts nothing.
 *
 * TSV column names (rule 3) come from the first of: the record's `columns`, the batch's
 * `columns`, the insert's `columns` parameter (`?columns=a,b`, where one client names
 * them), or the `columns` common attribute (comma-separated). A real stream sends
 * only `data` in a record, and its HTTP endpoint settings' parameters arrive as common
 * attributes, so the attribute is how a configured stream names its columns. It names
 * columns and is not itself added to the rows.
 */
import { Effect } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import type { DeliveryStreamBatch, DeliveryStreamContext } from "../../domain/EventTransforms.js"
import { EventRows } from "../../domain/EventTransforms.js"
import { RecordRejected, recordRows } from "./DeliveryStreamRecord.js"
import type { RecordContext } from "./DeliveryStreamRecord.js"
import { columnNames } from "./Tsv.js"

export const COLUMNS_ATTRIBUTE = "columns"

const repeatedName = (names: ReadonlyArray<string> | undefined) => {
  const seen = new Set<string>()
  return names?.find((name) => {
    if (seen.has(name)) return true
    seen.add(name)
    return false
  })
}

export const deliveryStream = Effect.fn("EventTransforms.deliveryStream")(function* (
  batch: DeliveryStreamBatch,
  context: DeliveryStreamContext
) {
  const { [COLUMNS_ATTRIBUTE]: columnsAttribute, ...rest } = context.commonAttributes
  const attributes = Object.entries(rest)
  const batchColumns =
    columnNames(batch.columns) ?? columnNames(context.columns) ?? columnNames(columnsAttribute)
  const repeated = [batchColumns, ...batch.records.map((r) => columnNames(r.columns))]
    .map(repeatedName)
    .find((name) => name !== undefined)
  if (repeated !== undefined)
    return yield* new BadRequest({
      message: `The column '${repeated}' is named twice for the batch's TSV records.`,
      hint: "Name each TSV column once (columns=a,b,c)."
    })
  const budget = { left: context.maxBytes, max: context.maxBytes }
  return yield* Effect.try({
    try: () => {
      const rows: Array<string> = []
      batch.records.forEach((record, index) => {
        const recordContext: RecordContext = {
          columns: columnNames(record.columns) ?? batchColumns,
          attributes,
          budget
        }
        for (const row of recordRows(index, record.data, recordContext)) rows.push(row)
      })
      return new EventRows({ rows })
    },
    catch: (error) => error
  }).pipe(
    Effect.catchAll((error) =>
      error instanceof RecordRejected ? Effect.fail(error.error) : Effect.die(error)
    )
  )
})
