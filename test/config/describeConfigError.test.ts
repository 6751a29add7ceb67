/** The one line a bad setting stops the start with: each variable named once, and why. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect } from "effect"
import type { ConfigError } from "effect"
import { clusterConfig } from "../../src/clusters/ClusterConfig.js"
import { describeConfigError } from "../../src/config/describeConfigError.js"
import { queryConfig } from "../../src/config/SluiceConfig.js"

const refusal = <A>(
  config: Effect.Effect<A, ConfigError.ConfigError>,
  settings: Record<string, string>
) =>
  config.pipe(
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings)))),
    Effect.flip,
    Effect.map(describeConfigError)
  )

describe("describeConfigError", () => {
  it.effect("names a failed validation's variable once", () =>
    Effect.gen(function* () {
      expect(yield* refusal(clusterConfig, { SLUICE_CLUSTER_SIZES: "big" })).toBe(
        "SLUICE_CLUSTER_SIZES: expected comma-separated <cpu cores>:<memory GiB> pairs, e.g. 1:4,2:8"
      )
    })
  )

  it.effect("names a value that does not parse, and every bad variable", () =>
    Effect.gen(function* () {
      expect(
        yield* refusal(queryConfig, {
          SLUICE_QUERY_TIMEOUT_SECONDS: "soon",
          SLUICE_QUERY_MAX_SQL_BYTES: "0"
        })
      ).toBe(
        'SLUICE_QUERY_MAX_SQL_BYTES: expected a positive integer; SLUICE_QUERY_TIMEOUT_SECONDS: Expected an integer value but received "soon"'
      )
    })
  )
})
