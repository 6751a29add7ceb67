/** Which metrics a request asks for, from its `metrics` url parameter. */
import { Effect, Option } from "effect"
import { BadRequest } from "../../../domain/Errors.js"
import { metricCatalog, metricNames } from "./MetricCatalog.js"

/** The `metrics` url parameter: comma-separated names; absent means every metric. */
export const parseMetricsParam = (param: Option.Option<string> | string | undefined) =>
  Option.map(Option.isOption(param) ? param : Option.fromNullable(param), (list) =>
    list
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "")
  )

const metricsHint = `Known metrics: ${metricNames.join(", ")}.`

/** The catalog entries for `names` (all when none), in catalog order. */
export const selectMetrics = (names: Option.Option<ReadonlyArray<string>>) =>
  Option.match(names, {
    onNone: () => Effect.succeed(metricCatalog),
    onSome: (requested) => {
      const unknown = requested.filter((name) => !metricNames.some((known) => known === name))
      if (unknown.length > 0)
        return new BadRequest({
          message: `Unknown metric ${unknown.map((name) => `"${name}"`).join(", ")}.`,
          hint: metricsHint
        })
      if (requested.length === 0)
        return new BadRequest({
          message: "metrics names no metric; omit it for all of them.",
          hint: metricsHint
        })
      return Effect.succeed(metricCatalog.filter((metric) => requested.includes(metric.name)))
    }
  })
