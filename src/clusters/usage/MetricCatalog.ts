/** The cluster metrics the service answers for (spec "Cluster metric series"). */
import type { ClusterMetricName } from "../../../domain/api/ClusterModels.js"
import type { ReplicaPoint } from "./MetricsStore.js"

export interface MetricDefinition {
  readonly name: ClusterMetricName
  readonly label: string
  readonly description: string
  readonly unit: string
  /** How samples inside one point are combined. */
  readonly aggregation: "sum" | "max"
  /** `cluster`: one point per time, summed over replicas; `replica`: one per replica. */
  readonly scope: "cluster" | "replica"
  readonly source: string
  readonly value: (point: ReplicaPoint) => number
}

const source = "engine"

/** In the order a response lists them when no `metrics` are asked for. */
export const metricCatalog: ReadonlyArray<MetricDefinition> = [
  {
    name: "total_read_queries",
    label: "Read queries",
    description: "Read (SELECT) queries the cluster ran in each interval, over all its replicas.",
    unit: "queries",
    aggregation: "sum",
    scope: "cluster",
    source,
    value: (point) => point.readQueries
  },
  {
    name: "total_write_queries",
    label: "Write queries",
    description: "Write (INSERT) queries the cluster ran in each interval, over all its replicas.",
    unit: "queries",
    aggregation: "sum",
    scope: "cluster",
    source,
    value: (point) => point.writeQueries
  },
  {
    name: "max_cpu_cores",
    label: "CPU cores",
    description:
      "CPU cores a replica used, averaged between two samples; the highest in each interval.",
    unit: "cores",
    aggregation: "max",
    scope: "replica",
    source,
    value: (point) => point.cpuCores
  },
  {
    name: "max_memory_bytes",
    label: "Memory",
    description: "Memory a replica's engine held when sampled; the highest in each interval.",
    unit: "bytes",
    aggregation: "max",
    scope: "replica",
    source,
    value: (point) => point.memoryBytes
  }
]

export const metricNames = metricCatalog.map((metric) => metric.name)
