/**
 * Label sets of Prometheus series: validation as the remote-write receiver does it, and
 * the series id, a hash of the sorted set, so a retried write names the same series.
 */
import { createHash } from "node:crypto"

export type Labels = Readonly<Record<string, string>>

const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/

export const isLabelName = (name: string) => LABEL_NAME.test(name)

/**
 * A label set to build or change, holding `from`'s labels: without a prototype, since
 * `__proto__` is a valid label name and assigned into a plain object it would vanish (a
 * remote-write series then merged with the one without it).
 */
export const labelSet = (from: Labels = {}): Record<string, string> =>
  Object.assign(Object.create(null), from)

/**
 * The label set of one remote-write series, or why it is refused. Empty values mean
 * "no such label" in Prometheus, so they are dropped rather than stored.
 */
export const validLabels = (
  pairs: ReadonlyArray<{ readonly name: string; readonly value: string }>
): { readonly labels: Labels } | { readonly problem: string } => {
  const labels = labelSet()
  for (const { name, value } of pairs) {
    if (!isLabelName(name)) return { problem: `invalid label name '${name}'` }
    if (Object.hasOwn(labels, name)) return { problem: `duplicate label name '${name}'` }
    if (value !== "") labels[name] = value
  }
  const metric = labels.__name__
  if (metric === undefined) return { problem: "a series has no __name__ label" }
  if (!METRIC_NAME.test(metric)) return { problem: `invalid metric name '${metric}'` }
  return { labels }
}

/**
 * A label's value, or undefined: own labels only. `__proto__` is a valid label name, and
 * read from a set that lacks it (a set read back as JSON has a prototype) it would be the
 * prototype itself.
 */
export const labelOf = (labels: Labels, name: string): string | undefined =>
  Object.hasOwn(labels, name) ? labels[name] : undefined

/** Prometheus's own order: label names sorted, `__name__` first by its leading underscores. */
export const sortedNames = (labels: Labels) => Object.keys(labels).sort()

/** A 64-bit id of a label set, as the decimal text of an unsigned integer. */
export const seriesId = (labels: Labels): string => {
  let text = ""
  for (const name of sortedNames(labels)) text += `${name}\u0000${labels[name]}\u0000`
  // One update of the whole text: the same digest as one per label, a third of the time.
  return createHash("sha256").update(text).digest().readBigUInt64LE(0).toString()
}
