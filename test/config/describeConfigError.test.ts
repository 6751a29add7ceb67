/** The one line a bad setting stops the start with: each variable named once, and why. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Option } from "effect"
import type { ConfigError } from "effect"
import { clusterConfig } from "../../src/clusters/ClusterConfig.js"
import { describeConfigError } from "../../src/config/describeConfigError.js"
import { queryConfig, sluiceConfig } from "../../src/config/SluiceConfig.js"

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

  it.effect("refuses a group of settings given in part instead of ignoring it", () =>
    Effect.gen(function* () {
      const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
        // Was: OpenID Connect silently off, or the embedded engines despite a server's user.
        [
          { SLUICE_OIDC_ISSUER: "https://id.example" },
          "SLUICE_OIDC_AUDIENCE: required with SLUICE_OIDC_ISSUER"
        ],
        [
          { SLUICE_OIDC_AUDIENCE: "sluice" },
          "SLUICE_OIDC_ISSUER: required with SLUICE_OIDC_AUDIENCE"
        ],
        [
          { SLUICE_CLICKHOUSE_USER: "ingest", SLUICE_CLICKHOUSE_PASSWORD: "secret" },
          "SLUICE_CLICKHOUSE_URL: required with SLUICE_CLICKHOUSE_USER and SLUICE_CLICKHOUSE_PASSWORD"
        ],
        // A bad value beside the missing URL: the URL first, as the group means nothing without it.
        [
          { SLUICE_CLICKHOUSE_ACCESS_CONTROL: "maybe" },
          "SLUICE_CLICKHOUSE_URL: required with SLUICE_CLICKHOUSE_ACCESS_CONTROL"
        ],
        // Given whole, a bad value is still named.
        [
          {
            SLUICE_CLICKHOUSE_URL: "http://127.0.0.1:8123",
            SLUICE_CLICKHOUSE_ACCESS_CONTROL: "maybe"
          },
          'SLUICE_CLICKHOUSE_ACCESS_CONTROL: Expected a boolean value but received "maybe"'
        ]
      ]
      for (const [settings, line] of cases)
        expect(yield* refusal(sluiceConfig, settings), JSON.stringify(settings)).toBe(line)
    })
  )

  it.effect("reads a group given whole, and none of it (or empty values) as absent", () =>
    Effect.gen(function* () {
      const read = (settings: Record<string, string>) =>
        sluiceConfig.pipe(
          Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))
        )
      const none = yield* read({ SLUICE_OIDC_ISSUER: "" })
      expect(Option.isNone(none.oidc) && Option.isNone(none.clickhouse)).toBe(true)
      const whole = yield* read({
        SLUICE_OIDC_ISSUER: "https://id.example",
        SLUICE_OIDC_AUDIENCE: "sluice",
        SLUICE_CLICKHOUSE_URL: "http://127.0.0.1:8123",
        SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off"
      })
      expect(whole.oidc).toEqual(Option.some({ issuer: "https://id.example", audience: "sluice" }))
      expect(Option.map(whole.clickhouse, (c) => [c.url, c.username, c.accessControl])).toEqual(
        Option.some(["http://127.0.0.1:8123", "default", false])
      )
    })
  )
})
