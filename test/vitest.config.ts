import { defineConfig } from "vitest/config"

/**
 * Files that need a process of their own (`npm test` runs them apart, isolated): chDB
 * binds one data directory per process (the engine tests open it on directories of their
 * own; files on `:memory:`, the in-memory composition's included, share a process, each
 * closing its engine before the next opens one), and `vi.mock` replaces a module for the
 * whole process.
 */
const isolated = [
  "test/engine/ChdbEngine.test.ts",
  "test/engine/ServerProvisioner.test.ts",
  "test/identity/users.test.ts",
  "test/prometheus/compliance.test.ts",
  "test/prometheus/promtool.test.ts",
  "test/prometheus/functionsAgainstPrometheus.test.ts",
  "test/prometheus/apiAgainstPrometheus.test.ts",
  // vi.mock of the lexer, which earlier files of a shared process have already loaded.
  "test/query/parsedOnce.test.ts",
  // Counts this process's esbuild children, which other files' builds may leave running.
  "test/bundle/Esbuild.test.ts",
  // V8 gives the young generation back only after seconds of little allocation, which
  // files sharing the process do not leave it (the test waited 22 s there, 30 at most).
  "test/runtime/IdleMemory.test.ts"
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
  // The request log's batch insert and its every filter, on PostgreSQL's own types.
  "test/requestlog/listing.test.ts",
  ...externalOnly
]
const postgresUrl = process.env.SLUICE_TEST_POSTGRES_URL ?? ""

/**
 * Black-box suites run a second time with every cluster's engine on one real ClickHouse
 * server (`test/support/clickhouseServerSetup.ts` starts it from chDB's engine library)
 * and `SLUICE_CLICKHOUSE_ACCESS_CONTROL=off`: the data plane, tables, query and cancel,
 * URL ingest, transforms, clusters and apps, OTLP, the spl-app and the metrics-app. Each
 * server's clusters are namespaces of their own there (random cluster ids), so the files
 * share the one ClickHouse server. Not here: suites about the embedded provisioner's
 * worker processes (a killed worker, its sockets, its memory and counters: engineCrash,
 * tokenCrash, longDataDir, clusterMemory, resultLimit, metricsHttp); the cluster
 * isolation suite, which on a server relies on per-cluster users and grants (with access
 * control off, SQL may name another cluster's databases); and suites whose subject never
 * reaches the engine (the cluster endpoints' authorization, storage settings, the saved
 * search list, PromQL evaluation limits).
 */
const onClickHouseServer = [
  "test/tables/concurrency.test.ts",
  "test/tables/describe.test.ts",
  "test/tables/insert.test.ts",
  "test/tables/keyNames.test.ts",
  "test/tables/semantics.test.ts",
  "test/databases/databases.test.ts",
  "test/databases/selection.test.ts",
  "test/query/query.test.ts",
  "test/query/hints.test.ts",
  "test/ingest/UrlIngest.test.ts",
  "test/ingest/otherLayouts.test.ts",
  "test/eventtransforms/eventsHttp.test.ts",
  "test/eventtransforms/deliveryStreamHttp.test.ts",
  "test/apps/apps.test.ts",
  "test/clusters/lifecycle.test.ts",
  "test/clusters/idling.test.ts",
  "test/otlp/grpc.test.ts",
  "test/otlp/metricsTable.test.ts",
  "test/otlp/native.test.ts",
  "test/otlp/nativeInput.test.ts",
  "test/otlp/transformInsert.test.ts",
  "test/hec/clients.test.ts",
  "test/hec/protocol.test.ts",
  "test/spl/savedSearches.test.ts",
  "test/spl/searchCapabilities.test.ts",
  "test/spl/searchEndpoint.test.ts",
  "test/spl/searchLimits.test.ts",
  "test/prometheus/appGate.test.ts",
  "test/prometheus/basicAuth.test.ts",
  "test/prometheus/explain.test.ts",
  "test/prometheus/functions.test.ts",
  "test/prometheus/otlpSeries.test.ts",
  "test/prometheus/remoteWrite.test.ts",
  "test/prometheus/writeLogReplay.test.ts"
]

/**
 * Several sluice processes on one PostgreSQL (`SLUICE_TEST_POSTGRES_URL`) and one
 * ClickHouse test server (`test/support/nodes.ts`); nothing runs without the URL, and
 * `npm test` passes the project `--passWithNoTests` (a project's own setting of it is
 * not read: without a PostgreSQL, `npm test` failed there).
 */
const nodes = ["test/nodes/**/*.test.ts"]

/**
 * The console in a real browser and the command line in processes and a terminal, against
 * servers of their own: a project apart so that `npm test` (test/run.ts) can run it beside
 * `shared` rather than after it.
 */
const clients = ["test/console/**/*.test.ts", "test/cli/**/*.test.ts"]

export default defineConfig({
  test: {
    // Each file builds real engines (PGlite, chDB): two processes a project run, the core
    // count here; `npm test` (test/run.ts) runs two project runs at once, to fill their waits.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
    setupFiles: ["test/support/effectTesters.ts"],
    projects: [
      // Every project but `isolated` runs with `--no-isolate` in `npm test`: its files share
      // their processes (each one's server is its own layer), so the program's modules load
      // once per process rather than once per file, most of a project's start-up (~50 s on
      // 2 cores here; `external` 32 -> 22 s, `nodes` 56 -> 48 s).
      {
        extends: true,
        test: {
          name: "shared",
          globalSetup: ["test/support/testRunTmp.ts"],
          include: ["test/**/*.test.ts"],
          exclude: [
            ...isolated,
            ...externalOnly,
            ...nodes,
            ...clients,
            "test/store/externalPostgres.test.ts"
          ]
        }
      },
      {
        extends: true,
        test: { name: "clients", globalSetup: ["test/support/testRunTmp.ts"], include: clients }
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
          globalSetup: [
            "test/support/testRunTmp.ts",
            ...(postgresUrl === "" ? [] : ["test/support/nodesSetup.ts"])
          ]
        }
      },
      {
        extends: true,
        test: {
          name: "server",
          include: onClickHouseServer,
          env: { SLUICE_TEST_ENGINE: "server" },
          globalSetup: ["test/support/testRunTmp.ts", "test/support/clickhouseServerSetup.ts"]
        }
      }
    ]
  }
})
