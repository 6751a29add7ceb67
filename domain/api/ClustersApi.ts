import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { ClusterId } from "../Ids.js"
import {
  ByoS3,
  Cluster,
  ClusterMetrics,
  CreateClusterRequest,
  SizeCatalog,
  UpdateClusterRequest
} from "./ClusterModels.js"
import { StorageVerification } from "../StorageVerifier.js"
import { Deleted, OrganizationRef } from "./Scope.js"

/** Cluster endpoints act in the organization named here, never in a key's scope. */
export const OrganizationParams = Schema.Struct({ organization: Schema.String })

/**
 * An ISO 8601 timestamp: `2026-03-01T12:00:00Z`, with an offset, a space for the `T`, or a
 * date alone (midnight UTC). Checked for that shape first, because the date parser behind
 * `DateTimeUtc` also takes strings such as `1` (the year 2001).
 */
const MetricsTime = Schema.String.pipe(
  Schema.pattern(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/i,
    {
      message: () => "expected an ISO 8601 timestamp such as 2026-03-01T12:00:00Z"
    }
  ),
  Schema.compose(Schema.DateTimeUtc)
)

/** The url parameters of both metrics endpoints (the by-name one adds `cluster`). */
export const MetricsParams = Schema.Struct({
  ...OrganizationParams.fields,
  start_time: MetricsTime,
  end_time: MetricsTime,
  /** Comma-separated metric names; omitted means all. */
  metrics: Schema.optional(Schema.String)
})

const clusterId = HttpApiSchema.param("cluster_id", ClusterId)

/** The size catalog: static, so it needs no credential and no organization. */
export class ClusterSizesApi extends HttpApiGroup.make("clusterSizes")
  .add(HttpApiEndpoint.get("sizes", "/v1/clusters/sizes").addSuccess(SizeCatalog))
  .annotate(OpenApi.Description, "The size catalog; needs no organization or credential.") {}

const adminOnly = (endpoint: string) => `${endpoint} Organization admins only.`

/**
 * Clusters of an organization. User credentials only: a cluster API key
 * is refused. The static paths come before `/{cluster_id}` so that routing picks them.
 */
export class ClustersApi extends HttpApiGroup.make("clusters")
  .add(
    HttpApiEndpoint.get("list", "/v1/clusters")
      .setUrlParams(OrganizationParams)
      .addSuccess(
        Schema.Struct({
          organization: Schema.Struct({
            ...OrganizationRef.fields,
            /** What the trust policy of a role on customer storage names (`sts:ExternalId`). */
            external_id: Schema.String
          }),
          clusters: Schema.Array(Cluster)
        })
      )
  )
  .add(
    HttpApiEndpoint.get("metricsByName", "/v1/clusters/metrics")
      .setUrlParams(Schema.Struct({ ...MetricsParams.fields, cluster: Schema.String }))
      .addSuccess(ClusterMetrics)
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.ClusterNotFound)
      .annotate(OpenApi.Description, "Like `/v1/clusters/{cluster_id}/metrics`, by cluster name.")
  )
  .add(
    HttpApiEndpoint.post("verifyS3Access", "/v1/clusters/verify-s3-access")
      .setUrlParams(OrganizationParams)
      .setPayload(Schema.Struct({ byo_s3: ByoS3 }))
      .addSuccess(StorageVerification)
      .annotate(
        OpenApi.Description,
        adminOnly(
          "Checks that the role can be assumed with the organization's external id (its " +
            "`external_id`, which the role's trust policy must name; a descriptor's own is " +
            "ignored) and both destinations reached."
        )
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/clusters")
      .setUrlParams(OrganizationParams)
      .setPayload(CreateClusterRequest)
      .addSuccess(Cluster, { status: 201 })
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.DuplicateClusterName)
      .addError(ErrorWire.InvalidClusterSize)
      .annotate(
        OpenApi.Description,
        adminOnly("On an ambiguous failure, list clusters and look for the name before retrying.")
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
      .addError(ErrorWire.ClusterNotFound)
  )
  .add(
    HttpApiEndpoint.patch("update")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .setPayload(UpdateClusterRequest)
      .addSuccess(Cluster)
      .addError(ErrorWire.ClusterNotFound)
      .addError(ErrorWire.DuplicateClusterName)
      .annotate(OpenApi.Description, adminOnly("Omitted properties are unchanged."))
  )
  .add(
    HttpApiEndpoint.post("stop")`/v1/clusters/${clusterId}/stop`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
      .addError(ErrorWire.ClusterNotFound)
      .addError(ErrorWire.ClusterTransitionConflict)
      .annotate(
        OpenApi.Description,
        adminOnly("Pauses the cluster; 409 while another transition runs.")
      )
  )
  .add(
    HttpApiEndpoint.post("resume")`/v1/clusters/${clusterId}/resume`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
      .addError(ErrorWire.ClusterNotFound)
      .addError(ErrorWire.ClusterTransitionConflict)
      .annotate(OpenApi.Description, adminOnly("409 while another transition runs."))
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .addSuccess(Deleted)
      .addError(ErrorWire.ClusterNotFound)
      .annotate(OpenApi.Description, adminOnly("Permanent."))
  )
  .add(
    HttpApiEndpoint.get("metrics")`/v1/clusters/${clusterId}/metrics`
      .setUrlParams(MetricsParams)
      .addSuccess(ClusterMetrics)
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.ClusterNotFound)
  )
  // Clusters are for users (an API key is refused), in an organization they belong to.
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Clusters") {}
