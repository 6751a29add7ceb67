/**
 * The service's `SLUICE_*` settings, read and validated once while the layers are built.
 * A capability that can be used alone reads its own part (`QueryConfig` here,
 * `ClusterConfig` in src/clusters). README.md documents each one; keep the two in step.
 */
import { Config, Context, Layer, Option, Redacted } from "effect"
import {
  check,
  email,
  httpUrl,
  optionalSecret,
  port,
  positiveInt,
  settingGroup
} from "./ConfigValues.js"
import { parseAllowList } from "./UrlAllowList.js"

/** The user-level SQL path's limits, on their own so `QueryRunner` can be used alone. */
export const queryConfig = Config.all({
  maxSqlBytes: positiveInt("SLUICE_QUERY_MAX_SQL_BYTES", 128 * 1024),
  timeoutSeconds: positiveInt("SLUICE_QUERY_TIMEOUT_SECONDS", 30),
  maxResultBytes: positiveInt("SLUICE_QUERY_MAX_RESULT_BYTES", 100 * 1024 * 1024)
})

/** Samples one PromQL evaluation may hold (Prometheus's `query.max-samples`). */
export const promqlMaxSamples = positiveInt("SLUICE_PROMQL_MAX_SAMPLES", 50_000_000)

export class QueryConfig extends Context.Tag("sluice/QueryConfig")<
  QueryConfig,
  Config.Config.Success<typeof queryConfig>
>() {
  static readonly layer = Layer.effect(QueryConfig, queryConfig)
}

/** Where this node keeps its embedded engines, control plane and sockets. */
export const dataDir = Config.string("SLUICE_DATA_DIR").pipe(Config.withDefault("./data"))

export const sluiceConfig = Config.all({
  dataDir,
  host: Config.string("SLUICE_HOST").pipe(Config.withDefault("127.0.0.1")),
  port: port("SLUICE_PORT", 8080),
  /** The address users reach the service at (the device login page's links), no trailing `/`. */
  publicUrl: Config.option(
    httpUrl("SLUICE_PUBLIC_URL").pipe(Config.map((url) => url.replace(/\/+$/, "")))
  ),
  /** Whether a request's client is the one the proxy in front names in `X-Forwarded-For`. */
  trustProxy: Config.boolean("SLUICE_TRUST_PROXY").pipe(Config.withDefault(false)),
  grpcPort: port("SLUICE_GRPC_PORT", 4317),
  databaseUrl: Config.option(
    Config.redacted("SLUICE_DATABASE_URL").pipe(
      check("SLUICE_DATABASE_URL", "expected a postgres:// or postgresql:// URL", (r) =>
        /^postgres(ql)?:\/\//.test(Redacted.value(r))
      )
    )
  ),
  clickhouse: settingGroup(
    {
      required: ["SLUICE_CLICKHOUSE_URL"],
      optional: [
        "SLUICE_CLICKHOUSE_USER",
        "SLUICE_CLICKHOUSE_PASSWORD",
        "SLUICE_CLICKHOUSE_ACCESS_CONTROL",
        "SLUICE_CLICKHOUSE_CLUSTER"
      ]
    },
    Config.all({
      url: httpUrl("SLUICE_CLICKHOUSE_URL"),
      username: Config.string("SLUICE_CLICKHOUSE_USER").pipe(Config.withDefault("default")),
      password: Config.redacted("SLUICE_CLICKHOUSE_PASSWORD").pipe(
        Config.withDefault(Redacted.make(""))
      ),
      /**
       * Each cluster its own user, settings profile and grants on the server; off, every
       * cluster runs as the configured user (for a user that cannot manage access).
       */
      accessControl: Config.boolean("SLUICE_CLICKHOUSE_ACCESS_CONTROL").pipe(
        Config.withDefault(true)
      ),
      /**
       * A cluster of the server's own (`remote_servers`): sluice's DDL then runs `ON
       * CLUSTER`, with replicated tables and `Distributed` ones over them
       * (src/engine/TableDdl.ts). Unset for one server, and for ClickHouse Cloud, whose
       * SharedMergeTree tables replicate by themselves.
       */
      cluster: Config.option(
        Config.string("SLUICE_CLICKHOUSE_CLUSTER").pipe(
          check(
            "SLUICE_CLICKHOUSE_CLUSTER",
            "expected a cluster name of the server's remote_servers (letters, digits, _ . -)",
            (name) => /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name)
          )
        )
      )
    })
  ),
  jwtSecret: optionalSecret("SLUICE_JWT_SECRET", 32),
  oidc: settingGroup(
    { required: ["SLUICE_OIDC_ISSUER", "SLUICE_OIDC_AUDIENCE"], optional: [] },
    Config.all({
      issuer: httpUrl("SLUICE_OIDC_ISSUER"),
      audience: Config.string("SLUICE_OIDC_AUDIENCE")
    })
  ),
  keyPepper: optionalSecret("SLUICE_KEY_PEPPER", 32),
  adminEmail: email("SLUICE_ADMIN_EMAIL").pipe(Config.withDefault("admin@localhost")),
  adminPassword: optionalSecret("SLUICE_ADMIN_PASSWORD", 12),
  urlIngest: Config.all({
    allow: Config.string("SLUICE_URL_INGEST_ALLOW").pipe(
      check(
        "SLUICE_URL_INGEST_ALLOW",
        "expected comma-separated hosts, addresses or CIDRs, each optionally with :port",
        (s) => parseAllowList(s)._tag === "Right"
      ),
      Config.withDefault("")
    ),
    maxBytes: positiveInt("SLUICE_URL_INGEST_MAX_BYTES", 10 * 1024 ** 3),
    timeoutSeconds: positiveInt("SLUICE_URL_INGEST_TIMEOUT_SECONDS", 600)
  }),
  maxRequestBytes: positiveInt("SLUICE_MAX_REQUEST_BYTES", 1024 * 1024),
  logRetentionDays: positiveInt("SLUICE_LOG_RETENTION_DAYS", 30),
  metricsIntervalSeconds: positiveInt("SLUICE_METRICS_INTERVAL_SECONDS", 60),
  metricsRetentionDays: positiveInt("SLUICE_METRICS_RETENTION_DAYS", 30),
  query: queryConfig,
  maxInsertBytes: positiveInt("SLUICE_MAX_INSERT_BYTES", 4 * 1024 * 1024 * 1024),
  /** Where verify-s3-access talks to: AWS by default, or an S3-compatible store. */
  storage: Config.all({
    s3Endpoint: Config.option(httpUrl("SLUICE_S3_ENDPOINT")),
    stsEndpoint: Config.option(httpUrl("SLUICE_STS_ENDPOINT")),
    region: Config.string("SLUICE_S3_REGION").pipe(Config.withDefault("us-east-1")),
    forcePathStyle: Config.boolean("SLUICE_S3_FORCE_PATH_STYLE").pipe(Config.withDefault(false))
  })
})

export type SluiceConfigShape = Config.Config.Success<typeof sluiceConfig>

export class SluiceConfig extends Context.Tag("sluice/SluiceConfig")<
  SluiceConfig,
  SluiceConfigShape
>() {
  /** Reads the environment (or the current `ConfigProvider`). */
  static readonly layer = Layer.effect(SluiceConfig, sluiceConfig)
}

/** Whether cluster engines run embedded (chDB under the data dir) rather than on a ClickHouse server. */
export const enginesEmbedded = (config: SluiceConfigShape) => Option.isNone(config.clickhouse)

/**
 * Which half runs where, as the start-up line says it: either half can be external
 * without the other, and an operator reading the line must be able to tell which.
 */
export const describeInfrastructure = (config: SluiceConfigShape) => {
  const controlPlane = Option.isNone(config.databaseUrl) ? "embedded" : "external PostgreSQL"
  const engines = Option.match(config.clickhouse, {
    onNone: () => "embedded engines",
    onSome: ({ accessControl, cluster }) =>
      "external ClickHouse engines" +
      Option.match(cluster, {
        onNone: () => "",
        onSome: (name) => ` on the server's cluster '${name}' (replicated, distributed tables)`
      }) +
      (accessControl
        ? ""
        : " (access control off: clusters on this server are " +
          "not isolated from each other by the server)")
  })
  return controlPlane === "embedded" && Option.isNone(config.clickhouse)
    ? "embedded engines"
    : `${controlPlane} control plane, ${engines}`
}
