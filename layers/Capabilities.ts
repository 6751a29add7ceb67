/**
 * Every capability, live, over the control plane (`SqlClient`), the `Provisioner` of
 * cluster engines and `SluiceConfig` (see `Infrastructure.ts`). Transports (`Http.ts`,
 * `Grpc.ts`), start-up work (`Startup.ts`) and embedding programs all use this one set.
 */
import { Layer } from "effect"
import { AppAccessLive } from "../src/apps/AppAccessLive.js"
import { AppRegistryLive } from "../src/apps/AppRegistryLive.js"
import { AppsRepo } from "../src/apps/AppsRepo.js"
import { ClusterConfig } from "../src/clusters/ClusterConfig.js"
import * as ClusterEngines from "../src/clusters/ClusterEngines.js"
import { ClusterEvents } from "../src/clusters/ClusterEvents.js"
import { ClusterLifecycleLive } from "../src/clusters/ClusterLifecycleLive.js"
import { ClustersRepo } from "../src/clusters/ClustersRepo.js"
import { EngineLocks } from "../src/clusters/EngineLocks.js"
import { ClusterMetricsQuery } from "../src/clusters/usage/ClusterMetricsQuery.js"
import { ClusterUsageLive } from "../src/clusters/usage/ClusterUsageLive.js"
import { StorageVerifierLive } from "../src/clusters/StorageCheck.js"
import { QueryConfig } from "../src/config/SluiceConfig.js"
import { DatabaseEvents } from "../src/databases/DatabaseEvents.js"
import { DatabasesLive } from "../src/databases/DatabasesLive.js"
import { DatabaseSelectionLive } from "../src/databases/DatabaseSelectionLive.js"
import { DatabasesRepo } from "../src/databases/DatabasesRepo.js"
import { EngineDatabases } from "../src/databases/EngineDatabases.js"
import { ApiKeysLive } from "../src/identity/ApiKeysLive.js"
import { ApiKeysRepo } from "../src/identity/ApiKeysRepo.js"
import { ApiKeyTokens } from "../src/identity/ApiKeyTokens.js"
import { AuthenticatorLive } from "../src/identity/AuthenticatorLive.js"
import { AuthorizationLive } from "../src/identity/AuthorizationLive.js"
import { DeviceAuthorizationLive } from "../src/identity/DeviceAuthorizationLive.js"
import { InvitationsRepo } from "../src/identity/InvitationsRepo.js"
import { OidcVerifier } from "../src/identity/OidcVerifier.js"
import { OrganizationLifecycle } from "../src/identity/OrganizationLifecycle.js"
import { OrganizationsLive } from "../src/identity/OrganizationsLive.js"
import { OrganizationsRepo } from "../src/identity/OrganizationsRepo.js"
import { AttemptLimiters } from "../src/identity/AttemptLimiter.js"
import { DeviceLogins } from "../src/identity/DeviceLogins.js"
import { PasswordLogin } from "../src/identity/PasswordLogin.js"
import { Passwords } from "../src/identity/Passwords.js"
import { ServiceSecrets } from "../src/identity/ServiceSecrets.js"
import { SessionsLive } from "../src/identity/SessionsLive.js"
import { SessionsRepo } from "../src/identity/SessionsRepo.js"
import { SessionTokens } from "../src/identity/SessionTokens.js"
import { UsersRepo } from "../src/identity/UsersRepo.js"
import { EventCollectorLive } from "../src/hec/EventCollectorLive.js"
import { IngestWriterLive } from "../src/ingest/IngestWriterLive.js"
import { TransformedIngestLive } from "../src/ingest/TransformedIngestLive.js"
import { UrlIngestLive } from "../src/ingest/UrlIngestLive.js"
import { RequestLogQueue } from "../src/requestlog/RequestLogQueue.js"
import { RequestLogsLive } from "../src/requestlog/RequestLogsLive.js"
import { RequestLogStore } from "../src/requestlog/RequestLogStore.js"
import { reportingAuthenticator, reportingAuthorization } from "../src/requestlog/ScopeReporting.js"
import { OtlpExportsLive } from "../src/otlp/OtlpExportsLive.js"
import { OtlpTransformsLive } from "../src/otlp/transforms/OtlpTransformsLive.js"
import { PromQLLive } from "../src/prometheus/PromQLLive.js"
import { OtlpSeriesLive } from "../src/prometheus/otlp/OtlpSeriesLive.js"
import { RemoteWriteLive } from "../src/prometheus/RemoteWrite.js"
import { SeriesStore } from "../src/prometheus/SeriesStore.js"
import { QueryRunnerLive } from "../src/query/QueryRunnerLive.js"
import { RunningQueries } from "../src/query/RunningQueries.js"
import { SplSearchLive } from "../src/spl/search/SplSearchLive.js"
import { SavedSearchesLive } from "../src/spl/saved/SavedSearchesLive.js"
import { SavedSearchesRepo } from "../src/spl/saved/SavedSearchesRepo.js"
import { SplCompilerLive } from "../src/spl/compiler/SplCompilerLive.js"
import { SchemalessTables } from "../src/tables/SchemalessTables.js"
import { TableEvents } from "../src/tables/TableEvents.js"
import { TableLocks } from "../src/tables/TableLocks.js"
import { TablesLive } from "../src/tables/TablesLive.js"
import { EventTransformsLive } from "../src/eventtransforms/EventTransformsLive.js"

/** The control plane's records. */
export const RepositoriesLive = Layer.mergeAll(
  UsersRepo.Default,
  SessionsRepo.Default,
  InvitationsRepo.Default,
  OrganizationsRepo.Default,
  ClustersRepo.Default,
  DatabasesRepo.Default,
  ApiKeysRepo.Default,
  AppsRepo.Default,
  RequestLogStore.Default,
  SavedSearchesRepo.Default
).pipe(
  // What capabilities publish for the caches of others (see src/events/Listeners.ts).
  Layer.provideMerge(
    Layer.mergeAll(ClusterEvents.Default, TableEvents.Default, DatabaseEvents.Default)
  )
)

/** Who is calling (`Authenticator`), what they may do (`Authorization`), clusters' API keys. */
export const IdentityLive = Layer.mergeAll(
  reportingAuthenticator(AuthenticatorLive),
  reportingAuthorization(AuthorizationLive),
  DeviceAuthorizationLive,
  ApiKeysLive,
  SessionsLive
).pipe(
  Layer.provideMerge(PasswordLogin.Default),
  Layer.provideMerge(
    Layer.mergeAll(
      SessionTokens.Default,
      OidcVerifier.Default,
      ApiKeyTokens.Default,
      Passwords.Default,
      AttemptLimiters.Default,
      DeviceLogins.Default
    )
  ),
  Layer.provideMerge(ServiceSecrets.Default)
)

/** Cluster lifecycle, apps, and `Engines` on top of them. */
export const ClustersLive = Layer.mergeAll(
  ClusterEngines.layer,
  ClusterUsageLive.pipe(Layer.provideMerge(ClusterMetricsQuery.Default)),
  StorageVerifierLive,
  AppRegistryLive,
  OrganizationsLive.pipe(Layer.provideMerge(OrganizationLifecycle.Default))
).pipe(
  Layer.provideMerge(ClusterLifecycleLive),
  Layer.provideMerge(EngineLocks.Default),
  Layer.provide(ClusterConfig.layer)
)

/** Ingest: URL loads and transforms write through the one `IngestWriter`. */
const IngestLive = Layer.mergeAll(UrlIngestLive, TransformedIngestLive).pipe(
  Layer.provideMerge(IngestWriterLive)
)

/** The way into every app: the caller's scope, the app gate, the selected database. */
const AppsAccessLive = AppAccessLive.pipe(Layer.provide(DatabaseSelectionLive))

/** The spl-app's event collector: its events go through the same writer (layers are shared by reference). */
const CollectorLive = EventCollectorLive.pipe(
  Layer.provide(Layer.merge(IngestWriterLive, AppsAccessLive))
)

/** Read-only SQL; it tells the request log the tables each query names. */
const QueryLive = QueryRunnerLive

/** SPL search: the compiler's SQL through the same query path (layers are shared by reference). */
const SplLive = SplSearchLive.pipe(Layer.provideMerge(SplCompilerLive), Layer.provide(QueryLive))

/** The spl-app's saved searches: records in the control plane, their SPL checked by the compiler. */
const SavedSearchesAppLive = SavedSearchesLive.pipe(
  Layer.provide(Layer.merge(SplCompilerLive, DatabaseSelectionLive))
)

/** Databases, tables, ingest and SQL on the clusters' engines; the request log as it is read. */
export const DataPlaneLive = Layer.mergeAll(
  DatabaseSelectionLive,
  AppsAccessLive,
  QueryLive,
  IngestLive,
  CollectorLive,
  SplLive,
  SavedSearchesAppLive,
  TablesLive,
  DatabasesLive.pipe(Layer.provideMerge(EngineDatabases.Default)),
  RequestLogQueue.Default,
  RequestLogsLive
).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SchemalessTables.Default,
      TableLocks.Default,
      EventTransformsLive,
      OtlpTransformsLive
    )
  ),
  // One registry of running queries: SQL queries and URL loads are cancelled alike.
  Layer.provideMerge(RunningQueries.Default),
  Layer.provide(QueryConfig.layer)
)

/**
 * PromQL over the metrics-app's series, on the data plane's SQL path; remote writes and
 * OTLP metrics as series; the otlp-app's exports, metrics among them.
 */
const MetricsLive = Layer.mergeAll(
  PromQLLive,
  RemoteWriteLive,
  OtlpExportsLive.pipe(Layer.provideMerge(OtlpSeriesLive))
).pipe(Layer.provideMerge(SeriesStore.Default), Layer.provideMerge(DataPlaneLive))

export const CapabilitiesLive = MetricsLive.pipe(
  Layer.provideMerge(ClustersLive),
  Layer.provideMerge(IdentityLive),
  Layer.provideMerge(RepositoriesLive)
)
