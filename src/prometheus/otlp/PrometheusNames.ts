/**
 * Names of OTLP metrics and attributes in Prometheus, as the OpenTelemetry-to-Prometheus
 * compatibility rules give them and Prometheus's own OTLP translator applies them: the
 * unit as a word suffix (`ms` → `milliseconds`, `By` → `bytes`, `{…}` dropped, `a/b` →
 * `a_per_b`, `1` → `ratio` for gauges), `_total` for monotonic sums, every character
 * outside `[a-zA-Z0-9]` a word break.
 */
const UNITS: Readonly<Record<string, string>> = {
  d: "days",
  h: "hours",
  min: "minutes",
  s: "seconds",
  ms: "milliseconds",
  us: "microseconds",
  ns: "nanoseconds",
  By: "bytes",
  KiBy: "kibibytes",
  MiBy: "mebibytes",
  GiBy: "gibibytes",
  TiBy: "tibibytes",
  KBy: "kilobytes",
  MBy: "megabytes",
  GBy: "gigabytes",
  TBy: "terabytes",
  m: "meters",
  V: "volts",
  A: "amperes",
  J: "joules",
  W: "watts",
  g: "grams",
  Cel: "celsius",
  Hz: "hertz",
  "%": "percent",
  "1": ""
}

const PER_UNITS: Readonly<Record<string, string>> = {
  s: "second",
  m: "minute",
  h: "hour",
  d: "day",
  w: "week",
  mo: "month",
  y: "year"
}

const words = (text: string): Array<string> =>
  text.split(/[^a-zA-Z0-9]+/).filter((word) => word.length > 0)

const cleanUnit = (word: string) => words(word).join("_")

/** The unit's suffixes: `ms` → milliseconds, `By/s` → bytes and per second, `{req}` → none. */
const unitSuffixes = (unit: string) => {
  const plain = unit.replace(/\{[^}]*\}/g, "").trim()
  const [main = "", per = ""] = plain.split("/", 2)
  return {
    main: cleanUnit(UNITS[main.trim()] ?? main),
    per: cleanUnit(PER_UNITS[per.trim()] ?? per)
  }
}

export type NameKind = "counter" | "gauge" | "other"

/** A metric family's Prometheus name (histograms and summaries add their own suffixes). */
export const prometheusName = (name: string, unit: string, kind: NameKind): string => {
  let tokens = words(name)
  const { main, per } = unitSuffixes(unit)
  if (main !== "" && !tokens.includes(main)) tokens.push(main)
  if (per !== "" && !tokens.includes(per)) tokens.push("per", per)
  if (kind === "counter") tokens = [...tokens.filter((word) => word !== "total"), "total"]
  if (kind === "gauge" && unit.trim() === "1")
    tokens = [...tokens.filter((word) => word !== "ratio"), "ratio"]
  const joined = tokens.join("_")
  return /^[0-9]/.test(joined) ? `_${joined}` : joined
}

/** An attribute's label name: other characters become `_`; a leading digit gets `key_`. */
export const labelName = (key: string): string => {
  const clean = key.replace(/[^a-zA-Z0-9_]/g, "_")
  if (/^[0-9]/.test(clean)) return `key_${clean}`
  if (clean.startsWith("_") && !clean.startsWith("__")) return `key${clean}`
  return clean
}
