import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
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
import { Deleted, OrganizationRef } from "./Scope.js"

/** Cluster endpoints act in the organization named here, never in a key's scope. */
export const OrganizationParams = Schema.Struct({ organization: Schema.String })

const MetricsParams = Schema.Struct({
  ...OrganizationParams.fields,
  start_time: Schema.DateTimeUtc,
  end_time: Schema.DateTimeUtc,
  /** Comma-separated metric names; omitted means all. */
  metrics: Schema.optional(Schema.String)
})

const clusterId = HttpApiSchema.param("cluster_id", ClusterId)

const adminOnly = (endpoint: string) => `${endpoint} Organization admins only.`

/**
 * Clusters of an organization (decisions.md §9). User credentials only: a cluster API key
 * is refused. The static paths come before `/{cluster_id}` so that routing picks them.
 */
export class ClustersApi extends HttpApiGroup.make("clusters")
  .add(
    HttpApiEndpoint.get("list", "/v1/clusters")
      .setUrlParams(OrganizationParams)
      .addSuccess(Schema.Struct({ organization: OrganizationRef, clusters: Schema.Array(Cluster) }))
  )
  .add(
    HttpApiEndpoint.get("sizes", "/v1/clusters/sizes")
      .addSuccess(SizeCatalog)
      .annotate(OpenApi.Description, "The size catalog; needs no organization.")
  )
  .add(
    HttpApiEndpoint.get("metricsByName", "/v1/clusters/metrics")
      .setUrlParams(Schema.Struct({ ...MetricsParams.fields, cluster: Schema.String }))
      .addSuccess(ClusterMetrics)
      .annotate(OpenApi.Description, "Like `/v1/clusters/{cluster_id}/metrics`, by cluster name.")
  )
  .add(
    HttpApiEndpoint.post("verifyS3Access", "/v1/clusters/verify-s3-access")
      .setUrlParams(OrganizationParams)
      .setPayload(Schema.Struct({ byo_s3: ByoS3 }))
      .addSuccess(Schema.Struct({ verified: Schema.Boolean, message: Schema.String }))
      .annotate(
        OpenApi.Description,
        adminOnly("Checks that the role can be assumed and both destinations reached.")
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/clusters")
      .setUrlParams(OrganizationParams)
      .setPayload(CreateClusterRequest)
      .addSuccess(Cluster, { status: 201 })
      .annotate(
        OpenApi.Description,
        adminOnly("On an ambiguous failure, list clusters and look for the name before retrying.")
      )
  )
  .add(
    HttpApiEndpoint.get("get")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
  )
  .add(
    HttpApiEndpoint.patch("update")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .setPayload(UpdateClusterRequest)
      .addSuccess(Cluster)
      .annotate(OpenApi.Description, adminOnly("Omitted properties are unchanged."))
  )
  .add(
    HttpApiEndpoint.post("stop")`/v1/clusters/${clusterId}/stop`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
      .annotate(
        OpenApi.Description,
        adminOnly("Pauses the cluster; 409 while another transition runs.")
      )
  )
  .add(
    HttpApiEndpoint.post("resume")`/v1/clusters/${clusterId}/resume`
      .setUrlParams(OrganizationParams)
      .addSuccess(Cluster)
      .annotate(OpenApi.Description, adminOnly("409 while another transition runs."))
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/clusters/${clusterId}`
      .setUrlParams(OrganizationParams)
      .addSuccess(Deleted)
      .annotate(OpenApi.Description, adminOnly("Permanent."))
  )
  .add(
    HttpApiEndpoint.get("metrics")`/v1/clusters/${clusterId}/metrics`
      .setUrlParams(MetricsParams)
      .addSuccess(ClusterMetrics)
  )
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Clusters") {}
