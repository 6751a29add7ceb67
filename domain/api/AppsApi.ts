import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { AppId } from "../AppIds.js"
import { ClusterRef } from "./Scope.js"

export class App extends Schema.Class<App>("App")({
  id: AppId,
  name: Schema.String,
  installed: Schema.Boolean
}) {}

/** App endpoints name the cluster they act on; they never take it from a key. */
export const AppScopeParams = Schema.Struct({
  organization: Schema.String,
  cluster: Schema.String
})

// A string, not `AppId`: an id outside the catalog is a 404, not a validation error.
const appId = HttpApiSchema.param("app_id", Schema.String)

/**
 * Per-cluster apps. User credentials only; installing or uninstalling
 * never changes the cluster's lifecycle, and listing works whatever state it is in.
 */
export class AppsApi extends HttpApiGroup.make("apps")
  .add(
    HttpApiEndpoint.get("list", "/v1/apps")
      .setUrlParams(AppScopeParams)
      .addSuccess(Schema.Struct({ cluster: ClusterRef, apps: Schema.Array(App) }))
  )
  .add(
    HttpApiEndpoint.put("install")`/v1/apps/${appId}`
      .setUrlParams(AppScopeParams)
      .addSuccess(App)
      .annotate(OpenApi.Description, "Organization admins only; idempotent.")
  )
  .add(
    HttpApiEndpoint.del("uninstall")`/v1/apps/${appId}`
      .setUrlParams(AppScopeParams)
      .addSuccess(App)
      .annotate(
        OpenApi.Description,
        "Organization admins only; idempotent. Data and saved searches are kept."
      )
  )
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Optional apps of a cluster") {}
