/**
 * One event of the spl-app as it is stored in `spl_events`: its time,
 * its text and its metadata as typed columns, and its fields queryable by dotted name.
 */
import { Schema } from "effect"

export const SplEvent = Schema.Struct({
  /** Epoch milliseconds (`_time`, a `DateTime64(3)`). */
  time: Schema.Int,
  /** `_raw`: the event's text, or the JSON text of an object event. */
  raw: Schema.String,
  host: Schema.String,
  source: Schema.String,
  sourcetype: Schema.String,
  index: Schema.String,
  /**
   * The fields of an object event and the envelope's indexed `fields` (which win on a
   * clash). Keys that name a metadata column are not fields; they stay in `_raw`.
   */
  fields: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})
export type SplEvent = typeof SplEvent.Type

/** The table every collector request writes to. */
export const SPL_EVENTS_TABLE = "spl_events"
