import type { CivilTime } from "./Calendar.js"
/** The PromQL functions the evaluator knows: range functions read a range vector. */
export const RANGE_FUNCTIONS: ReadonlySet<string> = new Set([
  "rate",
  "irate",
  "increase",
  "delta",
  "idelta",
  "deriv",
  "predict_linear",
  "changes",
  "resets",
  "avg_over_time",
  "sum_over_time",
  "min_over_time",
  "max_over_time",
  "count_over_time",
  "stddev_over_time",
  "stdvar_over_time",
  "quantile_over_time",
  "last_over_time",
  "first_over_time",
  "ts_of_first_over_time",
  "ts_of_last_over_time",
  "ts_of_max_over_time",
  "ts_of_min_over_time",
  "present_over_time",
  "absent_over_time",
  "mad_over_time",
  "double_exponential_smoothing"
])

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

export const FUNCTIONS: ReadonlySet<string> = new Set([
  ...RANGE_FUNCTIONS,
  ...Object.keys(MATH),
  ...Object.keys(DATES),
  "time",
  "vector",
  "scalar",
  "absent",
  "timestamp",
  "info",
  "round",
  "clamp",
  "clamp_min",
  "clamp_max",
  "label_replace",
  "label_join",
  "histogram_quantile",
  "sort",
  "sort_desc",
  "pi",
  "sort_by_label",
  "sort_by_label_desc",
  "histogram_avg",
  "histogram_count",
  "histogram_sum",
  "histogram_stddev",
  "histogram_stdvar",
  "histogram_fraction"
])
