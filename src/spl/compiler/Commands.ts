/** The commands of the subset, after the base search (the grammar knows the same list). */
export const COMMANDS = [
  "search",
  "where",
  "eval",
  "stats",
  "sort",
  "head",
  "fields",
  "table",
  "rename",
  "dedup",
  "timechart"
] as const

/** `timechart`'s options (the grammar's TimechartOptionName), with Splunk's defaults. */
export const TIMECHART_OPTIONS = {
  span: "chosen for bins",
  bins: "100",
  limit: "10",
  useother: "true",
  usenull: "true",
  nullstr: "NULL",
  otherstr: "OTHER",
  cont: "true"
} as const

/** The aggregates `timechart` computes per bucket. */
export const TIMECHART_AGGREGATES = ["count", "dc", "sum", "avg", "min", "max"] as const
