/**
 * OTLP names in Prometheus, by the compatibility rules' examples: unit words, `per`,
 * dropped `{…}` annotations, `_total` last, `ratio` for unit-1 gauges, label names.
 */
import { describe, expect, it } from "@effect/vitest"
import { labelName, prometheusName } from "../../src/prometheus/otlp/PrometheusNames.js"

describe("Prometheus names of OTLP metrics", () => {
  it("adds the unit as words unless the name has it", () => {
    expect(prometheusName("http.server.duration", "ms", "other")).toBe(
      "http_server_duration_milliseconds"
    )
    expect(prometheusName("network.io", "By/s", "gauge")).toBe("network_io_bytes_per_second")
    expect(prometheusName("disk.bytes", "By", "gauge")).toBe("disk_bytes")
    expect(prometheusName("queue.wait", "s", "gauge")).toBe("queue_wait_seconds")
    expect(prometheusName("requests", "{request}", "counter")).toBe("requests_total")
    expect(prometheusName("jobs", "{job}/min", "gauge")).toBe("jobs_per_min")
  })

  it("puts _total last on counters and ratio on unit-1 gauges", () => {
    expect(prometheusName("total.requests", "1", "counter")).toBe("requests_total")
    expect(prometheusName("cpu.utilization", "1", "gauge")).toBe("cpu_utilization_ratio")
    expect(prometheusName("cpu.utilization", "1", "counter")).toBe("cpu_utilization_total")
  })

  it("turns every other character into a word break, and a leading digit gets _", () => {
    expect(prometheusName("a..b--c", "", "gauge")).toBe("a_b_c")
    expect(prometheusName("3xx.responses", "", "gauge")).toBe("_3xx_responses")
    expect(prometheusName("!!!", "", "gauge")).toBe("")
  })

  it("sanitises label names", () => {
    expect(labelName("http.route")).toBe("http_route")
    expect(labelName("1st")).toBe("key_1st")
    expect(labelName("_private")).toBe("key_private")
    expect(labelName("__reserved")).toBe("__reserved")
  })
})
