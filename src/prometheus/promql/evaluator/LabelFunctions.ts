/** `label_replace` and `label_join`, with Go's regexp template expansion. */
import { isLabelName, labelOf, labelSet } from "../../SeriesLabels.js"
import type { Labels } from "../../SeriesLabels.js"
import type { Matcher, RE2JS } from "re2js"
import { anchoredRegexp, RegexpSyntaxError } from "../parser/Regexp.js"
import type { Value } from "./Values.js"
import { EvaluationError, VectorBuilder } from "./Values.js"

const stringArg = (value: Value | undefined, what: string) => {
  if (value?.kind !== "string") throw new EvaluationError(`expected a string for ${what}`, true)
  return value.value
}

const labelReplaceRegexp = (source: string) => {
  try {
    return anchoredRegexp(source)
  } catch (error) {
    if (!(error instanceof RegexpSyntaxError)) throw error
    throw new EvaluationError(`invalid regular expression in label_replace(): ${source}`)
  }
}

/** `Regexp.ExpandString`: `$1`, `${1}`, `$name`, `${name}`, `$$`; an unknown group is empty. */
const expand = (template: string, regexp: RE2JS, match: Matcher) =>
  template.replace(
    /\$(\$|\{([a-zA-Z0-9_]+)\}|([a-zA-Z0-9_]+))/g,
    (_, whole: string, braced?: string, bare?: string) => {
      if (whole === "$") return "$"
      const name = braced ?? bare!
      if (/^\d+$/.test(name)) {
        const index = Number(name)
        return index <= match.groupCount() ? (match.group(index) ?? "") : ""
      }
      return name in regexp.namedGroups() ? (match.group(name) ?? "") : ""
    }
  )

const relabel = (value: Value | undefined, f: (labels: Labels) => Labels): Value => {
  if (value?.kind !== "vector") throw new EvaluationError("expected an instant vector", true)
  const out = new VectorBuilder(value.series[0]?.values.length ?? 0)
  for (const s of value.series) {
    const labels = f(s.labels)
    s.values.forEach((v, step) => v !== undefined && out.add(labels, step, v))
  }
  return out.vector()
}

const setLabel = (labels: Labels, name: string, value: string): Labels => {
  const out = labelSet(labels)
  if (value === "") delete out[name]
  else out[name] = value
  return out
}

export const labelReplace = (args: ReadonlyArray<Value>): Value => {
  const destination = stringArg(args[1], "the destination label")
  const replacement = stringArg(args[2], "the replacement")
  const source = stringArg(args[3], "the source label")
  const regex = labelReplaceRegexp(stringArg(args[4], "the regex"))
  if (!isLabelName(destination))
    throw new EvaluationError(`invalid destination label name in label_replace(): ${destination}`)
  return relabel(args[0], (labels) => {
    const match = regex.matcher(labelOf(labels, source) ?? "")
    return match.matches()
      ? setLabel(labels, destination, expand(replacement, regex, match))
      : labels
  })
}

export const labelJoin = (args: ReadonlyArray<Value>): Value => {
  const destination = stringArg(args[1], "the destination label")
  const separator = stringArg(args[2], "the separator")
  const sources = args.slice(3).map((arg) => stringArg(arg, "a source label"))
  if (!isLabelName(destination))
    throw new EvaluationError(`invalid destination label name in label_join(): ${destination}`)
  return relabel(args[0], (labels) =>
    setLabel(
      labels,
      destination,
      sources.map((name) => labelOf(labels, name) ?? "").join(separator)
    )
  )
}
