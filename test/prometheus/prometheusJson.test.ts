/**
 * A range query's body is written as text (PrometheusJson.ts `resultBody`); it must be
 * the bytes `JSON.stringify` writes of the same answer in the API's nested shape, which
 * is what it replaced and what Prometheus's clients parse.
 */
import { describe, expect, it } from "@effect/vitest"
import type { PromQLResult } from "../../domain/PromQL.js"
import { resultBody } from "../../src/prometheus/http/PrometheusJson.js"

const bodyText = (response: ReturnType<typeof resultBody>) => {
  const body = response.body
  if (body._tag !== "Uint8Array") throw new Error(`a ${body._tag} body`)
  return { text: new TextDecoder().decode(body.body), contentType: body.contentType }
}

describe("range query bodies", () => {
  it("a matrix is the text JSON.stringify writes of it", () => {
    const result: PromQLResult = {
      _tag: "matrix",
      series: [
        {
          labels: { __name__: "up", job: 'a "quoted"\\ job\n', zone: "zürich ☃" },
          points: [
            [1_767_225_600_123, 1.5],
            [1_767_225_600_000, NaN],
            [-1, Infinity],
            [0, -Infinity],
            [1000.5, -0],
            [2_000_000_000_000, 1e-7],
            [3, 1.2345678901234568e21],
            [4, -5e-324]
          ]
        },
        { labels: {}, points: [[1, 0]] }
      ]
    }
    // The values as Prometheus writes them (Go's float text); times in seconds as numbers.
    const expected = JSON.stringify({
      status: "success",
      data: {
        resultType: "matrix",
        result: [
          {
            metric: { __name__: "up", job: 'a "quoted"\\ job\n', zone: "zürich ☃" },
            values: [
              [1_767_225_600.123, "1.5"],
              [1_767_225_600, "NaN"],
              [-0.001, "+Inf"],
              [0, "-Inf"],
              [1.0005, "-0"],
              [2_000_000_000, "1e-07"],
              [0.003, "1.2345678901234568e+21"],
              [0.004, "-5e-324"]
            ]
          },
          { metric: {}, values: [[0.001, "0"]] }
        ]
      }
    })
    expect(bodyText(resultBody(result))).toEqual({
      text: expected,
      contentType: "application/json"
    })
  })

  it("a matrix larger than the body's first buffer is the same text", () => {
    const series = Array.from({ length: 20 }, (_, k) => ({
      labels: { __name__: "big", k: `${k}`, note: "é".repeat(k * 50) },
      points: Array.from({ length: 3000 }, (_, i) => [i * 15_000.5, (i * k) / 7] as const)
    }))
    const expected = JSON.stringify({
      status: "success",
      data: {
        resultType: "matrix",
        result: series.map((s) => ({
          metric: s.labels,
          values: s.points.map(([t, v]) => [t / 1000, String(v)])
        }))
      }
    })
    const { text } = bodyText(resultBody({ _tag: "matrix", series }))
    expect(text.length).toBeGreaterThan(1_000_000)
    expect(text).toBe(expected)
  })

  it("an answer far longer than its points suggest (long labels) grows its buffer", () => {
    const long = "é".repeat(20_000)
    const series = [
      { labels: { __name__: "x", note: long }, points: [[1_000, 1]] as Array<[number, number]> },
      { labels: { note: `${long}2` }, points: [[2_000, 2]] as Array<[number, number]> }
    ]
    const expected = JSON.stringify({
      status: "success",
      data: {
        resultType: "matrix",
        result: [
          { metric: series[0]!.labels, values: [[1, "1"]] },
          { metric: series[1]!.labels, values: [[2, "2"]] }
        ]
      }
    })
    expect(bodyText(resultBody({ _tag: "matrix", series })).text).toBe(expected)
  })

  it("runs of one value, zero beside negative zero and NaN beside NaN keep each point's own text", () => {
    const values = [2, 2, 2, 0, -0, -0, 0, NaN, NaN, 1e-7, 1e-7, 2]
    const series = [
      { labels: { __name__: "steady" }, points: values.map((v, i) => [i * 1000, v] as const) },
      // The next series starts with its own first value, whatever the last one ended on.
      { labels: { k: "b" }, points: [[0, 2] as const, [1000, -0] as const] }
    ]
    const expected = JSON.stringify({
      status: "success",
      data: {
        resultType: "matrix",
        result: [
          {
            metric: { __name__: "steady" },
            values: [
              [0, "2"],
              [1, "2"],
              [2, "2"],
              [3, "0"],
              [4, "-0"],
              [5, "-0"],
              [6, "0"],
              [7, "NaN"],
              [8, "NaN"],
              [9, "1e-07"],
              [10, "1e-07"],
              [11, "2"]
            ]
          },
          {
            metric: { k: "b" },
            values: [
              [0, "2"],
              [1, "-0"]
            ]
          }
        ]
      }
    })
    expect(bodyText(resultBody({ _tag: "matrix", series })).text).toBe(expected)
  })

  it("an empty matrix", () => {
    expect(bodyText(resultBody({ _tag: "matrix", series: [] })).text).toBe(
      '{"status":"success","data":{"resultType":"matrix","result":[]}}'
    )
  })
})
