/** OTLP/JSON export requests used across the OTLP suites, with the values they carry. */

export const TRACE_ID = "5b8efff798038103d269b633813fc60c"
export const SPAN_ID = "eee19b7ec3c1b174"
export const PARENT_ID = "eee19b7ec3c1b173"
export const LINKED_TRACE = "0af7651916cd43dd8448eb211c80319c"
export const LINKED_SPAN = "b7ad6b7169203331"
/** Above 2^53: a JS number would lose the last digits. */
export const START_NS = "1700000000123456789"
export const END_NS = "1700000000987654321"
export const EVENT_NS = "1700000000500000001"

const attr = (key: string, value: Record<string, unknown>) => ({ key, value })

export const resource = {
  attributes: [
    attr("service.name", { stringValue: "checkout" }),
    attr("host.cpus", { intValue: "8" })
  ]
}

export const scope = { name: "io.sluice.test", version: "1.2.3", attributes: [] }

export const span = (overrides: Record<string, unknown> = {}) => ({
  traceId: TRACE_ID,
  spanId: SPAN_ID,
  parentSpanId: PARENT_ID,
  traceState: "vendor=1",
  name: "GET /cart",
  kind: 2,
  startTimeUnixNano: START_NS,
  endTimeUnixNano: END_NS,
  attributes: [
    attr("http.method", { stringValue: "GET" }),
    attr("http.status_code", { intValue: 200 }),
    attr("retry", { boolValue: true }),
    attr("ratio", { doubleValue: 0.25 }),
    attr("tags", { arrayValue: { values: [{ stringValue: "a" }, { intValue: "2" }] } }),
    attr("blob", { bytesValue: "AQID" })
  ],
  events: [
    {
      timeUnixNano: EVENT_NS,
      name: "cache.miss",
      attributes: [attr("cache.key", { stringValue: "cart:42" })]
    }
  ],
  links: [
    {
      traceId: LINKED_TRACE,
      spanId: LINKED_SPAN,
      traceState: "",
      attributes: [attr("link.kind", { stringValue: "follows" })]
    }
  ],
  status: { code: 2, message: "upstream timeout" },
  ...overrides
})

export const traces = (spans: ReadonlyArray<unknown> = [span()]) => ({
  resourceSpans: [{ resource, scopeSpans: [{ scope, spans }] }]
})

export const logRecord = (overrides: Record<string, unknown> = {}) => ({
  timeUnixNano: START_NS,
  observedTimeUnixNano: END_NS,
  severityNumber: 17,
  severityText: "ERROR",
  body: { stringValue: "payment declined" },
  attributes: [attr("user.id", { intValue: "9007199254740993" })],
  flags: 1,
  traceId: TRACE_ID,
  spanId: SPAN_ID,
  eventName: "payment.failed",
  ...overrides
})

export const logs = (records: ReadonlyArray<unknown> = [logRecord()]) => ({
  resourceLogs: [
    {
      resource,
      schemaUrl: "https://opentelemetry.io/schemas/1.26.0",
      scopeLogs: [{ scope, schemaUrl: "https://scope.example/1", logRecords: records }]
    }
  ]
})

const point = {
  attributes: [attr("route", { stringValue: "/cart" })],
  startTimeUnixNano: START_NS,
  timeUnixNano: END_NS
}

export const metricsList = [
  { name: "queue.depth", unit: "1", gauge: { dataPoints: [{ ...point, asInt: "7" }] } },
  {
    name: "requests",
    description: "served requests",
    unit: "1",
    sum: {
      aggregationTemporality: 2,
      isMonotonic: true,
      dataPoints: [
        {
          ...point,
          asDouble: 42.5,
          exemplars: [
            {
              timeUnixNano: EVENT_NS,
              asDouble: 1.5,
              traceId: TRACE_ID,
              spanId: SPAN_ID,
              filteredAttributes: [attr("user", { stringValue: "u1" })]
            }
          ]
        }
      ]
    }
  },
  {
    name: "latency",
    unit: "ms",
    histogram: {
      aggregationTemporality: 1,
      dataPoints: [
        {
          ...point,
          count: "6",
          sum: 33.5,
          bucketCounts: ["1", "2", "3"],
          explicitBounds: [5, 10],
          min: 0.5,
          max: 12
        }
      ]
    }
  },
  {
    name: "size",
    unit: "By",
    exponentialHistogram: {
      aggregationTemporality: 2,
      dataPoints: [
        {
          ...point,
          count: "5",
          sum: 100,
          scale: 3,
          zeroCount: "1",
          positive: { offset: -2, bucketCounts: ["1", "3"] },
          negative: { offset: 1, bucketCounts: [] },
          min: 0,
          max: 40
        }
      ]
    }
  },
  {
    name: "rpc.duration",
    unit: "s",
    summary: {
      dataPoints: [
        {
          ...point,
          count: "10",
          sum: 4.5,
          quantileValues: [
            { quantile: 0.5, value: 0.3 },
            { quantile: 0.99, value: 1.2 }
          ]
        }
      ]
    }
  }
]

export const metrics = (list: ReadonlyArray<unknown> = metricsList) => ({
  resourceMetrics: [{ resource, scopeMetrics: [{ scope, metrics: list }] }]
})

export const bytesOf = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
