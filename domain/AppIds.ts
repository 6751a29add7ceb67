/** The apps a cluster may install, by id: the one place their ids are spelled. */
import { Schema } from "effect"

export const AppIds = {
  /** Native OTLP ingest (HTTP and gRPC). */
  otlp: "otlp-app",
  /** Prometheus remote write and the Prometheus HTTP API. */
  metrics: "metrics-app",
  /** SPL search, saved searches and the HTTP Event Collector. */
  spl: "spl-app"
} as const

export const AppId = Schema.Literal(AppIds.otlp, AppIds.metrics, AppIds.spl)
export type AppId = typeof AppId.Type
