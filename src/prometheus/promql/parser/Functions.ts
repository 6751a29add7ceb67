import type { CivilTime } from "../evaluator/Calendar.js"
/** Range functions whose output keeps the metric name; every other drops it. */
export const KEEPS_NAME: ReadonlySet<string> = new Set(["last_over_time", "first_over_time"])

/** Elementwise math on each sample's value; all drop the metric name. */
export const MATH: Readonly<Record<string, (x: number) => number>> = {
  abs: Math.abs,
  ceil: Math.ceil,
  floor: Math.floor,
  exp: Math.exp,
  sqrt: Math.sqrt,
  ln: Math.log,
  log2: Math.log2,
  log10: Math.log10,
  sgn: (x) => (Number.isNaN(x) ? x : Math.sign(x)),
  sin: Math.sin,
  cos: Math.cos,
  tan: Math.tan,
  asin: Math.asin,
  acos: Math.acos,
  atan: Math.atan,
  sinh: Math.sinh,
  cosh: Math.cosh,
  tanh: Math.tanh,
  asinh: Math.asinh,
  acosh: Math.acosh,
  atanh: Math.atanh,
  deg: (x) => (x * 180) / Math.PI,
  rad: (x) => (x * Math.PI) / 180
}

/** Date parts of a value read as Unix seconds, in UTC (Calendar.ts). */
export const DATES: Readonly<Record<string, (t: CivilTime) => number>> = {
  minute: (t) => t.minute,
  hour: (t) => t.hour,
  day_of_week: (t) => t.weekday,
  day_of_month: (t) => t.day,
  day_of_year: (t) => t.dayOfYear,
  days_in_month: (t) => t.daysInMonth,
  month: (t) => t.month,
  year: (t) => t.year
}

/** A PromQL value's type, as a function or operator takes or gives it. */
export type ValueType = "scalar" | "vector" | "matrix" | "string"

/**
 * What a function takes and gives, as Prometheus's function table says: its arguments'
 * types and its result's. `variadic` 0: exactly `args`; otherwise the last of `args` is
 * optional and may repeat, up to `variadic` times in all (-1: any number of times).
 */
export interface Signature {
  readonly args: ReadonlyArray<ValueType>
  readonly variadic: number
  readonly returns: ValueType
}

const takes = (args: ReadonlyArray<ValueType>, returns: ValueType = "vector", variadic = 0) => ({
  args,
  variadic,
  returns
})

const each = <K extends string>(names: ReadonlyArray<K>, signature: Signature) =>
  Object.fromEntries(names.map((name) => [name, signature])) as Record<K, Signature>

/** Every function the evaluator knows, by name. */
export const SIGNATURES: Readonly<Record<string, Signature>> = {
  ...each(Object.keys(MATH), takes(["vector"])),
  // A date part of each sample's value, or of the evaluation time without an argument.
  ...each(Object.keys(DATES), takes(["vector"], "vector", 1)),
  ...each(
    [
      "rate",
      "irate",
      "increase",
      "delta",
      "idelta",
      "deriv",
      "changes",
      "resets",
      "avg_over_time",
      "sum_over_time",
      "min_over_time",
      "max_over_time",
      "count_over_time",
      "stddev_over_time",
      "stdvar_over_time",
      "last_over_time",
      "first_over_time",
      "ts_of_first_over_time",
      "ts_of_last_over_time",
      "ts_of_max_over_time",
      "ts_of_min_over_time",
      "present_over_time",
      "absent_over_time",
      "mad_over_time"
    ],
    takes(["matrix"])
  ),
  predict_linear: takes(["matrix", "scalar"]),
  quantile_over_time: takes(["scalar", "matrix"]),
  double_exponential_smoothing: takes(["matrix", "scalar", "scalar"]),
  time: takes([], "scalar"),
  pi: takes([], "scalar"),
  vector: takes(["scalar"]),
  scalar: takes(["vector"], "scalar"),
  ...each(["absent", "timestamp", "sort", "sort_desc"], takes(["vector"])),
  info: takes(["vector", "vector"], "vector", 1),
  round: takes(["vector", "scalar"], "vector", 1),
  clamp: takes(["vector", "scalar", "scalar"]),
  clamp_min: takes(["vector", "scalar"]),
  clamp_max: takes(["vector", "scalar"]),
  label_replace: takes(["vector", "string", "string", "string", "string"]),
  label_join: takes(["vector", "string", "string", "string"], "vector", -1),
  ...each(["sort_by_label", "sort_by_label_desc"], takes(["vector", "string"], "vector", -1)),
  histogram_quantile: takes(["scalar", "vector"]),
  histogram_fraction: takes(["scalar", "scalar", "vector"]),
  ...each(
    ["histogram_avg", "histogram_count", "histogram_sum", "histogram_stddev", "histogram_stdvar"],
    takes(["vector"])
  )
}

export const FUNCTIONS: ReadonlySet<string> = new Set(Object.keys(SIGNATURES))

/** The functions that read a range vector (a range selector or a subquery). */
export const RANGE_FUNCTIONS: ReadonlySet<string> = new Set(
  Object.entries(SIGNATURES)
    .filter(([, signature]) => signature.args.includes("matrix"))
    .map(([name]) => name)
)
