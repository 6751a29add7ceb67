/**
 * OTLP metrics as Prometheus series: the OpenTelemetry JS exporter
 * sends a counter, two gauges and a histogram to the otlp-app; with the metrics-app
 * installed PromQL reads them under the compatibility rules' names, with `job` and
 * `instance` from the resource and its other attributes on `target_info`. Without the metrics-app nothing becomes a series.
 */
import { expect, layer } from "@effect/vitest"
import { ValueType } from "@opentelemetry/api"
import type { HrTime } from "@opentelemetry/api"
import { ExportResultCode } from "@opentelemetry/core"
import { resourceFromAttributes } from "@opentelemetry/resources"
import { AggregationTemporality, DataPointType } from "@opentelemetry/sdk-metrics"
import type { ResourceMetrics } from "@opentelemetry/sdk-metrics"
import { Effect } from "effect"
import { installApp } from "../support/client.js"
import type { Transport } from "../support/otel.js"
import { destinationOf, installOtlpApp, metricExporter, send } from "../support/otel.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import { Strings, Vector } from "../support/prometheusReplies.js"

const ADMIN = "otlp-series-admin@example.com"
const PASSWORD = "otlp series admin password"
const T0 = 1_700_000_000
const at = (seconds: number): HrTime => [seconds, 0]
const q = encodeURIComponent

const resource = resourceFromAttributes({
  "service.name": "checkout",
  "service.namespace": "shop",
  "service.instance.id": "pod-1",
  "host.name": "node-7",
  // Not a string: a label value is its JSON text, as the OpenTelemetry spec writes it.
  "host.ports": [80, 443]
})
const scope = { name: "sluice-tests", version: "1.0.0" }

/**
 * At T0 and T0 + 60 s: counter shop.orders {order} 0 then 60 (attributes http.route and
 * 1st.try); gauges process.memory.usage By 1024 then 2048, cpu.utilization 1 at 0.25;
 * histogram http.server.duration ms with bounds 100, 500 and counts 2, 6, 2 at T0 + 60 s.
 */
const exported = (service = resource): ResourceMetrics => ({
  resource: service,
  scopeMetrics: [
    {
      scope,
      metrics: [
        {
          descriptor: {
            name: "shop.orders",
            description: "Orders placed.",
            unit: "{order}",
            valueType: ValueType.INT
          },
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.SUM,
          isMonotonic: true,
          dataPoints: [0, 60].map((value, i) => ({
            startTime: at(T0 - 1),
            endTime: at(T0 + 60 * i),
            attributes: { "http.route": "/buy", "1st.try": true },
            value
          }))
        },
        {
          descriptor: {
            name: "process.memory.usage",
            description: "",
            unit: "By",
            valueType: ValueType.INT
          },
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.GAUGE,
          dataPoints: [1024, 2048].map((value, i) => ({
            startTime: at(T0 - 1),
            endTime: at(T0 + 60 * i),
            attributes: {},
            value
          }))
        },
        {
          descriptor: {
            name: "cpu.utilization",
            description: "",
            unit: "1",
            valueType: ValueType.DOUBLE
          },
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.GAUGE,
          dataPoints: [{ startTime: at(T0 - 1), endTime: at(T0 + 60), attributes: {}, value: 0.25 }]
        },
        {
          descriptor: {
            name: "http.server.duration",
            description: "",
            unit: "ms",
            valueType: ValueType.DOUBLE
          },
          aggregationTemporality: AggregationTemporality.CUMULATIVE,
          dataPointType: DataPointType.HISTOGRAM,
          dataPoints: [
            {
              startTime: at(T0 - 1),
              endTime: at(T0 + 60),
              attributes: { "http.route": "/buy" },
              value: {
                buckets: { boundaries: [100, 500], counts: [2, 6, 2] },
                sum: 2500,
                count: 10
              }
            }
          ]
        }
      ]
    }
  ]
})

const promql = (query: string, time: number) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(
      server,
      "GET",
      `/metrics-compat/api/v1/query?query=${q(query)}&time=${time}`,
      { token: adminKeyOf(server) }
    )
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(Vector, reply).data.result.map((s) => ({ metric: s.metric, value: s.value[1] }))
  })

const exportVia = (transport: Transport, data: ResourceMetrics) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const result = yield* send(metricExporter(transport, destinationOf(server)), data)
    expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)
  })

layer(
  TestServer.layer(freshDataDir("otlp-series"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("OTLP metrics as Prometheus series", (it) => {
  it.effect("without the metrics-app an export stores rows but no series", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installOtlpApp(server, ADMIN, PASSWORD)
      yield* exportVia(
        "http/protobuf",
        exported(resourceFromAttributes({ "service.name": "before-install" }))
      )
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const jobs = yield* call(server, "GET", "/metrics-compat/api/v1/label/job/values", {
        token: adminKeyOf(server)
      })
      expect(bodyOf(Strings, jobs).data).toEqual([])
    })
  )

  it.effect("names, units, suffixes and labels follow the compatibility rules", () =>
    Effect.gen(function* () {
      yield* exportVia("http/protobuf", exported())
      const job = { job: "shop/checkout", instance: "pod-1" }
      expect(yield* promql("shop_orders_total", T0 + 60)).toEqual([
        {
          metric: {
            __name__: "shop_orders_total",
            ...job,
            http_route: "/buy",
            key_1st_try: "true"
          },
          value: "60"
        }
      ])
      expect(yield* promql("process_memory_usage_bytes", T0 + 60)).toEqual([
        { metric: { __name__: "process_memory_usage_bytes", ...job }, value: "2048" }
      ])
      expect(yield* promql("cpu_utilization_ratio", T0 + 60)).toEqual([
        { metric: { __name__: "cpu_utilization_ratio", ...job }, value: "0.25" }
      ])
      const buckets = yield* promql("http_server_duration_milliseconds_bucket", T0 + 60)
      expect(buckets.map((s) => [s.metric.le, s.value])).toEqual([
        ["+Inf", "10"],
        ["100", "2"],
        ["500", "8"]
      ])
      expect(yield* promql("http_server_duration_milliseconds_sum", T0 + 60)).toEqual([
        {
          metric: { __name__: "http_server_duration_milliseconds_sum", ...job, http_route: "/buy" },
          value: "2500"
        }
      ])
      expect(yield* promql("http_server_duration_milliseconds_count", T0 + 60)).toEqual([
        {
          metric: {
            __name__: "http_server_duration_milliseconds_count",
            ...job,
            http_route: "/buy"
          },
          value: "10"
        }
      ])
    })
  )

  it.effect("rate over the counter and histogram_quantile over the buckets, by hand", () =>
    Effect.gen(function* () {
      // 0 → 60 over (T0 - 4 m, T0 + 60 s]: starting at zero, the increase is 60 and is not
      // extrapolated before T0; the window ends on the last sample: 60 / 300 s = 0.2.
      expect(yield* promql("rate(shop_orders_total[5m])", T0 + 60)).toEqual([
        {
          metric: {
            job: "shop/checkout",
            instance: "pod-1",
            http_route: "/buy",
            key_1st_try: "true"
          },
          value: "0.2"
        }
      ])
      // Rank 0.5 × 10 = 5 falls in (100, 500], which holds 2 → 8: 100 + 400 × (5 - 2) / 6 = 300.
      expect(
        yield* promql("histogram_quantile(0.5, http_server_duration_milliseconds_bucket)", T0 + 60)
      ).toEqual([
        { metric: { job: "shop/checkout", instance: "pod-1", http_route: "/buy" }, value: "300" }
      ])
      // Rank 0.9 × 10 = 9 falls past 500, in +Inf: the highest finite bound, 500.
      expect(
        yield* promql("histogram_quantile(0.9, http_server_duration_milliseconds_bucket)", T0 + 60)
      ).toEqual([
        { metric: { job: "shop/checkout", instance: "pod-1", http_route: "/buy" }, value: "500" }
      ])
    })
  )

  it.effect("delta sums, exponential histograms and nameless metrics make no series", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const point = { startTime: at(T0 - 1), endTime: at(T0 + 60), attributes: {} }
      const odd: ResourceMetrics = {
        resource: resourceFromAttributes({ "service.name": "odd" }),
        scopeMetrics: [
          {
            scope,
            metrics: [
              {
                descriptor: {
                  name: "delta.sum",
                  description: "",
                  unit: "",
                  valueType: ValueType.INT
                },
                aggregationTemporality: AggregationTemporality.DELTA,
                dataPointType: DataPointType.SUM,
                isMonotonic: true,
                dataPoints: [{ ...point, value: 5 }]
              },
              {
                descriptor: {
                  name: "exp.hist",
                  description: "",
                  unit: "",
                  valueType: ValueType.DOUBLE
                },
                aggregationTemporality: AggregationTemporality.CUMULATIVE,
                dataPointType: DataPointType.EXPONENTIAL_HISTOGRAM,
                dataPoints: [
                  {
                    ...point,
                    value: {
                      count: 1,
                      sum: 2,
                      scale: 0,
                      zeroCount: 0,
                      positive: { offset: 0, bucketCounts: [1] },
                      negative: { offset: 0, bucketCounts: [] }
                    }
                  }
                ]
              },
              {
                descriptor: { name: "!!!", description: "", unit: "", valueType: ValueType.DOUBLE },
                aggregationTemporality: AggregationTemporality.CUMULATIVE,
                dataPointType: DataPointType.GAUGE,
                dataPoints: [{ ...point, value: 1 }]
              },
              {
                descriptor: {
                  name: "kept",
                  description: "",
                  unit: "",
                  valueType: ValueType.DOUBLE
                },
                aggregationTemporality: AggregationTemporality.CUMULATIVE,
                dataPointType: DataPointType.GAUGE,
                dataPoints: [{ ...point, value: 1 }]
              }
            ]
          }
        ]
      }
      // The export is accepted whole (its rows are the otlp-app's); only `kept` is a series.
      yield* exportVia("http/json", odd)
      const names = yield* call(
        server,
        "GET",
        "/metrics-compat/api/v1/series?match[]=" + q('{job="odd"}'),
        {
          token: adminKeyOf(server)
        }
      )
      expect(names.json).toEqual({ status: "success", data: [{ __name__: "kept", job: "odd" }] })
    })
  )

  it.effect("a point flagged 'no recorded value' is a stale marker: the series ends there", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const nanos = (seconds: number) => `${seconds}000000000`
      const body = {
        resourceMetrics: [
          {
            resource: { attributes: [{ key: "service.name", value: { stringValue: "flagged" } }] },
            scopeMetrics: [
              {
                metrics: [
                  {
                    name: "flagged.gauge",
                    gauge: {
                      dataPoints: [
                        { timeUnixNano: nanos(T0), asDouble: 1 },
                        { timeUnixNano: nanos(T0 + 30), flags: 1 }
                      ]
                    }
                  }
                ]
              }
            ]
          }
        ]
      }
      const sent = yield* call(server, "POST", "/otlp/v1/metrics", {
        token: adminKeyOf(server),
        body
      })
      expect(sent.status, sent.text).toBe(200)
      expect(yield* promql("flagged_gauge", T0 + 20)).toEqual([
        { metric: { __name__: "flagged_gauge", job: "flagged" }, value: "1" }
      ])
      // Within the 5-minute lookback of the value, but after the marker: nothing.
      expect(yield* promql("flagged_gauge", T0 + 40)).toEqual([])
    })
  )

  it.effect("the resource's other attributes label target_info; a bare service has none", () =>
    Effect.gen(function* () {
      // host.name and host.ports are the other attributes of the first resource; the
      // others have none.
      expect(yield* promql("target_info", T0 + 60)).toEqual([
        {
          metric: {
            __name__: "target_info",
            job: "shop/checkout",
            instance: "pod-1",
            host_name: "node-7",
            host_ports: "[80,443]"
          },
          value: "1"
        }
      ])
      // Written from the resource's first point (T0) on, not only at its last.
      expect(yield* promql("target_info", T0)).toHaveLength(1)
    })
  )

  it.effect("gRPC exports reach the series as well; the metadata names the families", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* exportVia("grpc", exported(resourceFromAttributes({ "service.name": "over-grpc" })))
      expect(yield* promql('target_info{job="over-grpc"}', T0 + 60)).toEqual([])
      expect(yield* promql('shop_orders_total{job="over-grpc"}', T0 + 60)).toEqual([
        {
          metric: {
            __name__: "shop_orders_total",
            job: "over-grpc",
            http_route: "/buy",
            key_1st_try: "true"
          },
          value: "60"
        }
      ])
      const meta = yield* call(
        server,
        "GET",
        "/metrics-compat/api/v1/metadata?metric=shop_orders_total",
        {
          token: adminKeyOf(server)
        }
      )
      expect(meta.json).toEqual({
        status: "success",
        data: { shop_orders_total: [{ type: "counter", help: "Orders placed.", unit: "{order}" }] }
      })
    })
  )
})
