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
