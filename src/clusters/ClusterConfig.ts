/**
 * The size catalog and cluster defaults: `SLUICE_CLUSTER_*` settings, and
 * how many clusters an organization and organizations a user may have: each organization
 * starts a cluster, and each cluster's engine holds its own memory.
 */
import { Config, Context, Layer } from "effect"
import { check, positiveInt } from "../config/ConfigValues.js"
import { parseSizes } from "./SizeCatalog.js"

export const clusterConfig = Config.all({
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
  ),
  maxClustersPerOrganization: positiveInt("SLUICE_MAX_CLUSTERS_PER_ORGANIZATION", 10),
  maxOrganizationsPerUser: positiveInt("SLUICE_MAX_ORGANIZATIONS_PER_USER", 5)
})

export class ClusterConfig extends Context.Tag("sluice/ClusterConfig")<
  ClusterConfig,
  Config.Config.Success<typeof clusterConfig>
>() {
  static readonly layer = Layer.effect(ClusterConfig, clusterConfig)
}
