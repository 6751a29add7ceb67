/**
 * Label sets of series ids already read, so a query reads labels only for series it has
 * not seen. An id is the hash of its label set (SeriesLabels.ts), so an entry is never
 * out of date and nothing needs to invalidate it; past the bound it is forgotten whole.
 * Keys name the cluster and database too, so no database's series answer for another's.
 */
import type { Labels } from "../../SeriesLabels.js"

const BOUND = 500_000

export const makeKnownLabels = () => {
  const known = new Map<string, Labels>()
  return {
    get: (key: string) => known.get(key),
    remember: (key: string, labels: Labels) => {
      if (known.size >= BOUND) known.clear()
      known.set(key, labels)
    }
  }
}

export type KnownLabels = ReturnType<typeof makeKnownLabels>
