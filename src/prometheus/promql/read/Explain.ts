/**
 * `explain=true`: a `Fetch` (and a `CountFetch`) that records the statements each
 * selector would run and reads nothing. The windows a selector reads depend only on the
 * steps, offsets and `@`, never on samples, so evaluating over no series yields every
 * statement of a real run.
 */
import { Effect } from "effect"
import type { ExplainedSelector } from "../../../../domain/PromQL.js"
import type { Matcher } from "../parser/Ast.js"
import { printMatchers } from "../parser/Print.js"
import type { CountFetch, Fetch, Windows } from "./Selectors.js"
import { samplesSql, windowCountsSql } from "./SeriesSql.js"

export const explainingFetch = () => {
  const selectors: Array<typeof ExplainedSelector.Type> = []
  const recording =
    (sql: typeof samplesSql) =>
    (matchers: ReadonlyArray<Matcher>, from: number, to: number, windows?: Windows) =>
      Effect.sync(() => {
        selectors.push({
          node: printMatchers(matchers),
          from,
          to,
          sql: [sql(matchers, from, to, windows)]
        })
        return []
      })
  const fetch: Fetch<never> = recording(samplesSql)
  const countWindows: CountFetch<never> = recording(windowCountsSql)
  return { fetch, countWindows, selectors }
}
