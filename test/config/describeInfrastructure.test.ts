/** The start-up line names which half is external: either can be without the other. */
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Exit } from "effect"
import { SluiceConfig, describeInfrastructure } from "../../src/config/SluiceConfig.js"

const describedWith = (settings: Record<string, string>) =>
  Effect.map(SluiceConfig, describeInfrastructure).pipe(
    Effect.provide(SluiceConfig.layer),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))
  )

const postgres = { SLUICE_DATABASE_URL: "postgres://sluice@db.internal:5432/sluice" }
const clickhouse = { SLUICE_CLICKHOUSE_URL: "http://clickhouse.internal:8123" }

describe("describeInfrastructure", () => {
  it.effect("says embedded when nothing points outside", () =>
    Effect.gen(function* () {
      expect(yield* describedWith({})).toBe("embedded engines")
    })
  )

  it.effect("names the external control plane when only PostgreSQL is external", () =>
    Effect.gen(function* () {
      expect(yield* describedWith(postgres)).toBe(
        "external PostgreSQL control plane, embedded engines"
      )
    })
  )

  it.effect("names the external engines when only ClickHouse is external", () =>
    Effect.gen(function* () {
      expect(yield* describedWith(clickhouse)).toBe(
        "embedded control plane, external ClickHouse engines"
      )
    })
  )

  it.effect("names both when both are external", () =>
    Effect.gen(function* () {
      expect(yield* describedWith({ ...postgres, ...clickhouse })).toBe(
        "external PostgreSQL control plane, external ClickHouse engines"
      )
    })
  )

  it.effect("says the server does not isolate clusters when access control is off", () =>
    Effect.gen(function* () {
      expect(
        yield* describedWith({
          ...postgres,
          ...clickhouse,
          SLUICE_CLICKHOUSE_ACCESS_CONTROL: "off"
        })
      ).toBe(
        "external PostgreSQL control plane, external ClickHouse engines (access control off: " +
          "clusters on this server are not isolated from each other by the server)"
      )
    })
  )

  it.effect("names the server's cluster its tables are replicated and distributed on", () =>
    Effect.gen(function* () {
      expect(yield* describedWith({ ...clickhouse, SLUICE_CLICKHOUSE_CLUSTER: "lake" })).toBe(
        "embedded control plane, external ClickHouse engines on the server's cluster 'lake' " +
          "(replicated, distributed tables)"
      )
      const refused = yield* Effect.exit(
        describedWith({ ...clickhouse, SLUICE_CLICKHOUSE_CLUSTER: "lake`; DROP" })
      )
      expect(Exit.isFailure(refused) && String(Exit.causeOption(refused))).toContain(
        "SLUICE_CLICKHOUSE_CLUSTER: expected a cluster name"
      )
    })
  )
})
