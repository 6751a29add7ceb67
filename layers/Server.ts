/**
 * The HTTP server: the API's handlers, the services they use, bootstrap before
 * listening, and the start-up announcement. Needs a control plane (`SqlClient`),
 * a `Provisioner` and `SluiceConfig` — see `Infrastructure.ts` and `Main.ts`. The
 * data plane reaches engines through `Engines`, which the cluster lifecycle provides.
 */
import { FileSystem, HttpApiBuilder, HttpIncomingMessage } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { SluiceApi } from "../domain/Api.js"
import { AppGate } from "../src/apps/AppGate.js"
import { AppsHttpLive } from "../src/apps/AppsHttp.js"
import { AppsRepo } from "../src/apps/AppsRepo.js"
import { AnnounceLive } from "../src/bootstrap/Announce.js"
import { Bootstrap } from "../src/bootstrap/Bootstrap.js"
import { FirstStart } from "../src/bootstrap/FirstStart.js"
import { ClusterBootLive } from "../src/clusters/ClusterBoot.js"
import * as ClusterEngines from "../src/clusters/ClusterEngines.js"
import { ClusterLifecycle } from "../src/clusters/ClusterLifecycle.js"
import { ClustersHttpLive, ClusterSizesHttpLive } from "../src/clusters/ClustersHttp.js"
import { ClustersRepo } from "../src/clusters/ClustersRepo.js"
import { EngineLocks } from "../src/clusters/EngineLocks.js"
import { IdlingLive } from "../src/clusters/Idling.js"
import { ClusterMetricsQuery } from "../src/clusters/metrics/ClusterMetricsQuery.js"
import { MetricsSamplerLive } from "../src/clusters/metrics/MetricsSampler.js"
import { MetricsStore } from "../src/clusters/metrics/MetricsStore.js"
import { StorageVerifierLive } from "../src/clusters/StorageCheck.js"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { DatabasesRepo } from "../src/databases/DatabasesRepo.js"
import { DatabasesHttpLive } from "../src/databases/DatabasesHttp.js"
import { EngineDatabases } from "../src/databases/EngineDatabases.js"
import { createBodyLimitedServer } from "../src/http/BodyLimitedServer.js"
import { ErrorShapeLive } from "../src/http/ErrorShape.js"
import { HealthHttpLive } from "../src/http/HealthHttp.js"
import { PendingGroupsLive } from "../src/http/PendingGroups.js"
import { QueryHttpLive } from "../src/query/QueryHttp.js"
import { RunningQueries } from "../src/query/RunningQueries.js"
import { ApiKeysRepo } from "../src/identity/ApiKeysRepo.js"
import { ApiKeyTokens } from "../src/identity/ApiKeyTokens.js"
import { AuthenticationLive } from "../src/identity/AuthenticationLive.js"
import { AuthenticatorLive } from "../src/identity/AuthenticatorLive.js"
import { AuthHttpLive } from "../src/identity/AuthHttp.js"
import { KeysHttpLive } from "../src/identity/KeysHttp.js"
import { OidcVerifier } from "../src/identity/OidcVerifier.js"
import { OrganizationsHttpLive } from "../src/identity/OrganizationsHttp.js"
import { OrganizationsRepo } from "../src/identity/OrganizationsRepo.js"
import { Passwords } from "../src/identity/Passwords.js"
import { Policy } from "../src/identity/Policy.js"
import { ServiceSecrets } from "../src/identity/ServiceSecrets.js"
import { SessionTokens } from "../src/identity/SessionTokens.js"
import { UsersRepo } from "../src/identity/UsersRepo.js"
import { TableLocks } from "../src/ingest/TableLocks.js"
import { UrlIngest } from "../src/ingest/UrlIngest.js"
import { SchemalessTables } from "../src/tables/SchemalessTables.js"
import { TablesHttpLive } from "../src/tables/TablesHttp.js"
import { DeliveryStreamErrorsLive } from "../src/transforms/DeliveryStreamErrors.js"
import { EventTransformsLive } from "../src/transforms/EventTransformsLive.js"
import { LogsHttpLive } from "../src/logs/LogsHttp.js"
import { requestLogMiddleware } from "../src/logs/RequestLogMiddleware.js"
import { RequestLogsLive } from "../src/logs/RequestLogsLive.js"
import { OtlpHttpLive } from "../src/otlp/OtlpHttp.js"
import { OtlpTransformsLive } from "../src/otlp/transforms/OtlpTransformsLive.js"
import { reportingAuthenticator, reportingPolicy } from "../src/logs/ScopeReporting.js"

const RepositoriesLive = Layer.mergeAll(
  UsersRepo.Default,
  OrganizationsRepo.Default,
  ClustersRepo.Default,
  DatabasesRepo.Default,
  ApiKeysRepo.Default,
  // The gate rides with the repositories so every group and transport can use it.
  AppsRepo.Default,
  AppGate.Default
)

const IdentityLive = reportingAuthenticator(AuthenticatorLive).pipe(
  Layer.provideMerge(
    Layer.mergeAll(
      SessionTokens.Default,
      OidcVerifier.Default,
      ApiKeyTokens.Default,
      Passwords.Default,
      reportingPolicy(Policy.Default)
    )
  ),
  Layer.provideMerge(ServiceSecrets.Default),
  Layer.provideMerge(RepositoriesLive)
)

/** Cluster lifecycle, idling, metrics, and `Engines` on top of them. */
const ClustersLive = Layer.mergeAll(
  ClusterEngines.layer,
  IdlingLive,
  ClusterBootLive,
  Layer.merge(ClusterMetricsQuery.DefaultWithoutDependencies, MetricsSamplerLive).pipe(
    Layer.provide(MetricsStore.Default)
  )
).pipe(Layer.provideMerge(ClusterLifecycle.Default), Layer.provideMerge(EngineLocks.Default))

const GroupsLive = Layer.mergeAll(
  HealthHttpLive,
  AuthHttpLive,
  OrganizationsHttpLive,
  KeysHttpLive,
  LogsHttpLive,
  DatabasesHttpLive.pipe(Layer.provide(EngineDatabases.Default)),
  TablesHttpLive.pipe(
    Layer.provide(
      Layer.mergeAll(
        SchemalessTables.Default,
        TableLocks.Default,
        UrlIngest.Default,
        EventTransformsLive
      )
    )
  ),
  QueryHttpLive,
  AppsHttpLive,
  ClustersHttpLive.pipe(Layer.provide(StorageVerifierLive)),
  ClusterSizesHttpLive,
  OtlpHttpLive,
  PendingGroupsLive
).pipe(
  // One registry of running queries: SQL queries and URL loads (`UrlIngest` names the
  // same layer as its dependency; a layer is built once per server) are cancelled alike.
  Layer.provide(Layer.mergeAll(AuthenticationLive, RunningQueries.Default))
)

const ApiLive = HttpApiBuilder.api(SluiceApi).pipe(
  Layer.provide(GroupsLive),
  // Added after ErrorShape, so it wraps it and sees the responses ErrorShape makes too.
  Layer.provide(DeliveryStreamErrorsLive),
  Layer.provide(ErrorShapeLive)
)

const HttpServerLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ host, port, maxRequestBytes }) =>
    Layer.merge(
      NodeHttpServer.layer(createBodyLimitedServer, { host, port }),
      // Each request's fiber starts from the server's context, so the body readers (the
      // platform's and `RequestText`) find the limit there without a provide per request.
      Layer.succeed(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(maxRequestBytes)))
    )
  )
)

export const ServerLive = AnnounceLive.pipe(
  Layer.provideMerge(
    HttpApiBuilder.serve(requestLogMiddleware).pipe(
      Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/v1/openapi.json" })),
      Layer.provide(ApiLive),
      Layer.provideMerge(HttpServerLive)
    )
  ),
  Layer.provideMerge(ClustersLive),
  Layer.provideMerge(FirstStart.layer),
  Layer.provide(Bootstrap.Default),
  Layer.provideMerge(IdentityLive),
  Layer.provideMerge(RequestLogsLive),
  Layer.provideMerge(OtlpTransformsLive)
)
