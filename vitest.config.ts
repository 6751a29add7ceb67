import { defineConfig } from "vitest/config"

/**
 * Files that need a process of their own (`npm test` runs them apart, isolated): chDB
 * binds one data directory per process (the engine tests, and the in-memory composition's
 * `:memory:` engine), `vi.mock` replaces a module for the whole process, and the two
 * cadence tests drive a `TestClock` that a file run earlier in the same process leaves
 * unusable (`adjust is not a function`).
 */
const isolated = [
  "test/engine/ChdbEngine.test.ts",
  "test/engine/ServerProvisioner.test.ts",
  "test/clusters/inMemory.test.ts",
  "test/otlp/grpcAlone.test.ts",
  "test/identity/users.test.ts",
  "test/clusters/metricsSampler.test.ts",
  "test/requestlog/retention.test.ts",
  "test/store/leases.test.ts",
  "test/spl/search.test.ts",
  "test/spl/pipeline.test.ts",
  "test/spl/safety.test.ts",
  "test/spl/limits.test.ts",
  "test/identity/deviceAuthorization.test.ts",
  "test/identity/attemptLimiter.test.ts",
  "test/spl/timechart.test.ts",
  "test/spl/searchTime.test.ts",
  "test/spl/functions.test.ts",
  "test/spl/rules.test.ts",
  "test/prometheus/compliance.test.ts",
  "test/spl/searchWindow.test.ts",
  "test/prometheus/promtool.test.ts",
  "test/prometheus/functionsAgainstPrometheus.test.ts",
  "test/prometheus/apiAgainstPrometheus.test.ts"
]

/**
 * Suites run a second time on a real PostgreSQL control plane (`.ci/run` starts Debian's
 * and sets `SLUICE_TEST_POSTGRES_URL`): the migrations, bootstrap then restart, first
 * starts racing on one database, and black-box HTTP suites over every repository.
 * Without the URL only `externalPostgres.test.ts` runs, and reports itself skipped.
 */
const externalOnly = ["test/bootstrap/concurrentFirstStart.test.ts"]
const onExternalControlPlane = [
  "test/store/ControlPlaneSql.test.ts",
  "test/bootstrap/restart.test.ts",
  "test/identity/keys.test.ts",
  "test/databases/databases.test.ts",
  "test/clusters/lifecycle.test.ts",
  ...externalOnly
]
const postgresUrl = process.env.SLUICE_TEST_POSTGRES_URL ?? ""

/**
 * Several sluice processes on one PostgreSQL (`SLUICE_TEST_POSTGRES_URL`) and one
 * ClickHouse test server (`test/support/nodes.ts`); nothing runs without the URL.
 */
const nodes = ["test/nodes/**/*.test.ts"]

export default defineConfig({
  test: {
    // Each file builds real engines (PGlite, chDB): keep concurrency at the core count.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    projects: [
      // Run with `--no-isolate` by `npm test`: these files share their processes (each
      // one's server is its own layer), so the program's modules load once per process
      // rather than once per file, most of the suite's start-up (~50 s on 2 cores).
      {
        extends: true,
        test: {
          name: "shared",
          globalSetup: ["test/support/testRunTmp.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [...isolated, ...externalOnly, ...nodes, "test/store/externalPostgres.test.ts"]
        }
      },
      {
        extends: true,
        test: { name: "isolated", globalSetup: ["test/support/testRunTmp.ts"], include: isolated }
      },
      {
        extends: true,
        test: {
          name: "external",
          include: [
            "test/store/externalPostgres.test.ts",
            ...(postgresUrl === "" ? [] : onExternalControlPlane)
          ],
          env: { SLUICE_TEST_CONTROL_PLANE: "external" },
          globalSetup: [
            "test/support/testRunTmp.ts",
            ...(postgresUrl === "" ? [] : ["test/support/externalPostgresSetup.ts"])
          ]
        }
      },
      {
        extends: true,
        test: {
          name: "nodes",
          include: postgresUrl === "" ? [] : nodes,
          passWithNoTests: true,
          globalSetup: [
            "test/support/testRunTmp.ts",
            ...(postgresUrl === "" ? [] : ["test/support/externalPostgresSetup.ts"])
          ]
        }
      }
    ]
  }
})
