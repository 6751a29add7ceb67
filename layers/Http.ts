/**
 * The HTTP transport: the API's handlers over the capabilities, the request log around
 * them, the server, and the start-up announcement (once bootstrap is done).
 */
import { FileSystem, HttpApiBuilder, HttpIncomingMessage } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Option } from "effect"
import { SluiceApi } from "../domain/Api.js"
import { AppsHttpLive } from "../src/apps/AppsHttp.js"
import { AnnounceLive } from "../src/http/Announce.js"
import { ClustersHttpLive, ClusterSizesHttpLive } from "../src/clusters/ClustersHttp.js"
import { ConsoleHttpLive } from "../src/console/ConsoleHttp.js"
import { cannotListen } from "../src/config/CannotListen.js"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { DatabasesHttpLive } from "../src/databases/DatabasesHttp.js"
import { createBodyLimitedServer } from "../src/http/BodyLimitedServer.js"
import { groupsOn, serveApi } from "../src/http/ServeApi.js"
import { ErrorShapeLive } from "../src/http/ErrorShape.js"
import { HecHttpLive } from "../src/hec/HecHttp.js"
import { HealthHttpLive } from "../src/http/HealthHttp.js"
import { JsonPayloadsLive } from "../src/http/JsonPayloads.js"
import { AuthenticationHttpLive } from "../src/identity/AuthenticationHttp.js"
import { AuthHttpLive } from "../src/identity/AuthHttp.js"
import { KeysHttpLive } from "../src/identity/KeysHttp.js"
import { OrganizationsHttpLive } from "../src/identity/OrganizationsHttp.js"
import { MetricsHttpLive } from "../src/prometheus/MetricsHttp.js"
import { LogsHttpLive } from "../src/requestlog/LogsHttp.js"
import { requestLogMiddleware } from "../src/requestlog/http/RequestLogMiddleware.js"
import { RequestLogQueue } from "../src/requestlog/RequestLogQueue.js"
import { OtlpHttpLive } from "../src/otlp/OtlpHttp.js"
import { QueryHttpLive } from "../src/query/QueryHttp.js"
import { SplCapabilitiesHttpLive, SplHttpLive } from "../src/spl/SplHttp.js"
import { SavedSearchesHttpLive } from "../src/spl/saved/SavedSearchesHttp.js"
import { TablesHttpLive } from "../src/ingest/TablesHttp.js"
import { DeliveryStreamErrorsLive } from "../src/eventtransforms/http/DeliveryStreamErrors.js"
import { DeviceLoginHttpLive } from "../src/identity/DeviceLoginHttp.js"
import { DocsHttpLive } from "../src/http/DocsHttp.js"
import { ApiKeys } from "../domain/ApiKeys.js"
import { AppAccess } from "../domain/AppAccess.js"
import { AppRegistry } from "../domain/AppRegistry.js"
import { Authorization } from "../domain/Authorization.js"
import { ClusterLifecycle } from "../domain/ClusterLifecycle.js"
import { ClusterUsage } from "../domain/ClusterUsage.js"
import { DatabaseSelection } from "../domain/DatabaseSelection.js"
import { Databases } from "../domain/Databases.js"
import { DeviceAuthorization } from "../domain/DeviceAuthorization.js"
import { EventCollector } from "../domain/EventCollector.js"
import { Authenticator } from "../domain/Identity.js"
import { IngestWriter } from "../domain/IngestWriter.js"
import { Organizations } from "../domain/Organizations.js"
import { OtlpExports } from "../domain/OtlpExports.js"
import { PromQL } from "../domain/PromQL.js"
import { Provisioner } from "../domain/Provisioner.js"
import { QueryRunner } from "../domain/QueryRunner.js"
import { RemoteWrite } from "../domain/RemoteWrite.js"
import { RequestLogs } from "../domain/RequestLogs.js"
import { SavedSearches } from "../domain/SavedSearches.js"
import { Sessions } from "../domain/Sessions.js"
import { SplSearch } from "../domain/SplSearch.js"
import { StorageVerifier } from "../domain/StorageVerifier.js"
import { Tables } from "../domain/Tables.js"
import { TransformedIngest } from "../domain/TransformedIngest.js"
import { UrlIngest } from "../domain/UrlIngest.js"

const GroupsLive = Layer.mergeAll(
  HealthHttpLive,
  AuthHttpLive,
  OrganizationsHttpLive,
  KeysHttpLive,
  LogsHttpLive,
  DatabasesHttpLive,
  TablesHttpLive,
  QueryHttpLive,
  AppsHttpLive,
  ClustersHttpLive,
  ClusterSizesHttpLive,
  OtlpHttpLive,
  HecHttpLive,
  DeviceLoginHttpLive,
  DocsHttpLive,
  SplHttpLive,
  SplCapabilitiesHttpLive,
  SavedSearchesHttpLive,
  MetricsHttpLive
).pipe(
  Layer.provide(AuthenticationHttpLive),
  // What the handlers reach, and all they may: `domain/` capabilities and the settings.
  // HttpApi merges a group's build context into each of its requests' (ServeApi.ts `groupsOn`).
  groupsOn(
    ApiKeys,
    AppAccess,
    AppRegistry,
    Authenticator,
    Authorization,
    ClusterLifecycle,
    ClusterUsage,
    DatabaseSelection,
    Databases,
    DeviceAuthorization,
    EventCollector,
    IngestWriter,
    Organizations,
    OtlpExports,
    PromQL,
    Provisioner,
    QueryRunner,
    RemoteWrite,
    RequestLogs,
    SavedSearches,
    Sessions,
    SluiceConfig,
    SplSearch,
    StorageVerifier,
    Tables,
    TransformedIngest,
    UrlIngest
  )
)

const ApiLive = HttpApiBuilder.api(SluiceApi).pipe(
  Layer.provide(GroupsLive),
  Layer.provide(JsonPayloadsLive),
  // Added after ErrorShape, so it wraps it and sees the responses ErrorShape makes too.
  Layer.provide(DeliveryStreamErrorsLive),
  Layer.provide(ErrorShapeLive)
)

const HttpServerLive = Layer.unwrapEffect(
  Effect.map(SluiceConfig, ({ host, port, maxRequestBytes }) =>
    Layer.merge(
      NodeHttpServer.layer(createBodyLimitedServer, { host, port }).pipe(
        Layer.catchAll((error) =>
          Layer.fail(cannotListen("HTTP", "SLUICE_PORT", `${host}:${port}`, error))
        )
      ),
      // Each request's fiber starts from the server's context, so the body readers (the
      // platform's and `RequestBody.textReader`) find the limit there without a provide per request.
      Layer.succeed(HttpIncomingMessage.MaxBodySize, Option.some(FileSystem.Size(maxRequestBytes)))
    )
  )
)

export const HttpLive = AnnounceLive.pipe(
  Layer.provideMerge(
    // A request reads only the request log's queue of sluice's services while it runs: the
    // handlers took the rest when they were built. A new one read per request goes here.
    serveApi(requestLogMiddleware, [RequestLogQueue]).pipe(
      Layer.provide(HttpApiBuilder.middlewareOpenApi({ path: "/v1/openapi.json" })),
      Layer.provide(ConsoleHttpLive),
      Layer.provide(ApiLive),
      Layer.provideMerge(HttpServerLive)
    )
  )
)
