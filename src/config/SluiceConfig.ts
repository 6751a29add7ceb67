/**
 * Every `SLUICE_*` setting, read and validated once while the layers are built.
 * README.md documents each one; keep the two in step.
 */
import { Config, Context, Layer, Option, Redacted } from "effect"
import { parseSizes } from "../clusters/SizeCatalog.js"
import { parseAllowList } from "./UrlAllowList.js"

/** A validation whose message names the variable (Effect reports these without a path). */
const check =
  <A>(name: string, message: string, validation: (a: A) => boolean) =>
  (config: Config.Config<A>) =>
    Config.validate(config, { message: `${name}: ${message}`, validation })

/** An optional secret of at least `minLength` characters; its value never appears in errors. */
const optionalSecret = (name: string, minLength: number) =>
  Config.option(
    Config.redacted(name).pipe(
      check(
        name,
        `expected at least ${minLength} characters`,
        (r) => Redacted.value(r).length >= minLength
      )
    )
  )

const port = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    check(name, "expected a port number between 0 and 65535", (n) => n >= 0 && n <= 65_535),
    Config.withDefault(fallback)
  )

const positiveInt = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    check(name, "expected a positive integer", (n) => n > 0),
    Config.withDefault(fallback)
  )

const httpUrl = (name: string) =>
  Config.string(name).pipe(
    check(name, "expected an http:// or https:// URL", (s) => /^https?:\/\/[^\s]+$/.test(s))
  )

const email = (name: string) =>
  Config.string(name).pipe(
    check(name, "expected an email address", (s) => /^[^\s@]+@[^\s@]+$/.test(s))
  )

/** The user-level SQL path's limits, on their own so `QueryRunner` can be used alone. */
export const queryConfig = Config.all({
  maxSqlBytes: positiveInt("SLUICE_QUERY_MAX_SQL_BYTES", 128 * 1024),
  timeoutSeconds: positiveInt("SLUICE_QUERY_TIMEOUT_SECONDS", 30),
  maxResultBytes: positiveInt("SLUICE_QUERY_MAX_RESULT_BYTES", 100 * 1024 * 1024)
})

export class QueryConfig extends Context.Tag("sluice/QueryConfig")<
  QueryConfig,
  Config.Config.Success<typeof queryConfig>
>() {
  static readonly layer = Layer.effect(QueryConfig, queryConfig)
}

export const sluiceConfig = Config.all({
  dataDir: Config.string("SLUICE_DATA_DIR").pipe(Config.withDefault("./data")),
  host: Config.string("SLUICE_HOST").pipe(Config.withDefault("127.0.0.1")),
  port: port("SLUICE_PORT", 8080),
  grpcPort: port("SLUICE_GRPC_PORT", 4317),
  databaseUrl: Config.option(
    Config.redacted("SLUICE_DATABASE_URL").pipe(
      check("SLUICE_DATABASE_URL", "expected a postgres:// or postgresql:// URL", (r) =>
        /^postgres(ql)?:\/\//.test(Redacted.value(r))
      )
    )
  ),
  clickhouse: Config.option(
    Config.all({
      url: httpUrl("SLUICE_CLICKHOUSE_URL"),
      username: Config.string("SLUICE_CLICKHOUSE_USER").pipe(Config.withDefault("default")),
      password: Config.redacted("SLUICE_CLICKHOUSE_PASSWORD").pipe(
        Config.withDefault(Redacted.make(""))
      )
    })
  ),
  jwtSecret: optionalSecret("SLUICE_JWT_SECRET", 32),
  oidc: Config.option(
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
  /** The size catalog and cluster defaults (decisions.md §9). */
  clusters: Config.all({
    sizes: Config.string("SLUICE_CLUSTER_SIZES").pipe(
      check(
        "SLUICE_CLUSTER_SIZES",
        "expected comma-separated <cpu cores>:<memory GiB> pairs, e.g. 1:4,2:8",
        (s) => parseSizes(s) !== undefined
      ),
      Config.withDefault("1:4,2:8,4:16,8:32,16:64")
    ),
    maxReplicas: positiveInt("SLUICE_CLUSTER_MAX_REPLICAS", 1),
    defaultIdleTimeoutMinutes: Config.integer("SLUICE_DEFAULT_IDLE_TIMEOUT_MINUTES").pipe(
      check(
        "SLUICE_DEFAULT_IDLE_TIMEOUT_MINUTES",
        "expected 0 (off) or 15 through 43200",
        (n) => n === 0 || (n >= 15 && n <= 43_200)
      ),
      Config.withDefault(0)
    )
  }),
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

/** Whether the control plane and the engine are embedded, for logs and layer choice. */
export const isEmbedded = (config: SluiceConfigShape) =>
  Option.isNone(config.databaseUrl) && Option.isNone(config.clickhouse)
