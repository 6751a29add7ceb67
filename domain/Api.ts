/**
 * The whole HTTP contract. A client or an embedding program imports this and
 * `domain/` only. Each endpoint declares the `ErrorWire` errors it can return (the
 * `Authentication` middleware its 401, a group what all its endpoints share); the
 * document adds the error-shape middleware's own answers (see `openApiDocument.ts`).
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { withMiddlewareResponses } from "./openApiDocument.js"
import { AppsApi } from "./api/AppsApi.js"
import { AuthApi } from "./api/AuthApi.js"
import { ClusterSizesApi, ClustersApi } from "./api/ClustersApi.js"
import { DatabasesApi } from "./api/DatabasesApi.js"
import { DeviceLoginApi } from "./api/DeviceLoginApi.js"
import { DocsApi } from "./api/DocsApi.js"
import { HealthApi } from "./api/HealthApi.js"
import { HecApi } from "./api/HecApi.js"
import { KeysApi } from "./api/KeysApi.js"
import { LogsApi } from "./api/LogsApi.js"
import { MetricsCompatApi } from "./api/MetricsCompatApi.js"
import { OrganizationsApi } from "./api/OrganizationsApi.js"
import { OtlpApi } from "./api/OtlpApi.js"
import { QueryApi } from "./api/QueryApi.js"
import { SavedSearchesApi } from "./api/SavedSearchesApi.js"
import { SplApi, SplCapabilitiesApi } from "./api/SplApi.js"
import { TablesApi } from "./api/TablesApi.js"

export class SluiceApi extends HttpApi.make("sluice")
  .add(HealthApi)
  .add(AuthApi)
  .add(OrganizationsApi)
  .add(KeysApi)
  .add(DatabasesApi)
  .add(TablesApi)
  .add(QueryApi)
  .add(LogsApi)
  .add(ClusterSizesApi)
  .add(ClustersApi)
  .add(AppsApi)
  .add(SplCapabilitiesApi)
  .add(SplApi)
  .add(SavedSearchesApi)
  .add(OtlpApi)
  .add(MetricsCompatApi)
  .add(HecApi)
  .add(DeviceLoginApi)
  .add(DocsApi)
  .annotate(OpenApi.Transform, withMiddlewareResponses)
  .annotate(OpenApi.Title, "sluice")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Ingest JSON records into tables and query them with read-only SQL."
  ) {}
