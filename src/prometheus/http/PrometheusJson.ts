/**
 * Prometheus's HTTP API bodies: `{status, data, warnings?}` and
 * `{status: "error", errorType, error}`.
 */
import { HttpServerResponse } from "@effect/platform"
import type { PromQLError, PromQLErrorType, PromQLResult } from "../../../domain/PromQL.js"
import { goSampleValue } from "../promql/parser/GoFormat.js"

const seconds = (ms: number) => ms / 1000

export const resultData = (result: PromQLResult) => {
  switch (result._tag) {
    case "matrix":
      return {
        resultType: "matrix",
        result: result.series.map((s) => ({
          metric: s.labels,
          values: s.points.map(([t, v]) => [seconds(t), goSampleValue(v)])
        }))
      }
    case "vector":
      return {
        resultType: "vector",
        result: result.samples.map((s) => ({
          metric: s.labels,
          value: [seconds(result.time), goSampleValue(s.value)]
        }))
      }
    case "scalar":
      return { resultType: "scalar", result: [seconds(result.time), goSampleValue(result.value)] }
    case "string":
      return { resultType: "string", result: [seconds(result.time), result.value] }
  }
}

/**
 * A query's success body: a matrix written as text directly, the rest through `success`.
 * A day's `max_over_time` at 2-minute steps is 150k points: as nested arrays handed to
 * `JSON.stringify` they were two arrays, a number and a string per point, all alive until
 * the body was written (a good part of the server's busy time, the collector's share
 * included). The text is what `JSON.stringify` writes of `resultData`'s shape: a number
 * as `String` writes it, the value strings never needing an escape, labels stringified.
 * Each series' text goes into the body's bytes as soon as it is made, so no more than
 * one series' strings live at a time (all of them alive until the end had been most of
 * what the young generation's collections copied for such a result).
 */
export const resultBody = (result: PromQLResult) => {
  if (result._tag !== "matrix") return success(resultData(result))
  // Every series' points fall on the query's steps: each step's time is written once.
  const timeTexts = new Map<number, string>()
  const body = new BodyBytes(
    result.series.reduce((bytes, s) => bytes + 128 + s.points.length * 28, 64)
  )
  body.write(`{"status":"success","data":{"resultType":"matrix","result":[`)
  result.series.forEach((s, index) => {
    const points = s.points
    const texts = new Array<string>(points.length)
    // A series often holds one value over several steps (a steady rate, a count): its
    // text is made once for the run (38 % of the compliance queries' points).
    let previous = NaN
    let previousText = ""
    for (let i = 0; i < points.length; i++) {
      const [t, v] = points[i]!
      let time = timeTexts.get(t)
      if (time === undefined) timeTexts.set(t, (time = `${seconds(t)}`))
      if (v !== previous || Object.is(v, -0) !== Object.is(previous, -0)) {
        previous = v
        previousText = goSampleValue(v)
      }
      texts[i] = `[${time},"${previousText}"]`
    }
    body.write(
      `${index === 0 ? "" : ","}{"metric":${JSON.stringify(s.labels)},"values":[${texts.join(",")}]}`
    )
  })
  body.write("]}}")
  return HttpServerResponse.uint8Array(body.bytes(), { contentType: "application/json" })
}

/**
 * UTF-8 bytes appended to a buffer that doubles as it fills, first sized for the answer
 * expected (a point's `[t,"v"]` is 20–30 bytes): a fixed 64 KB each was fresh external
 * memory for every small answer, and a large one grew by copies from there.
 */
class BodyBytes {
  private buffer: Buffer
  private length = 0

  constructor(expected: number) {
    this.buffer = Buffer.allocUnsafe(expected)
  }

  write(text: string) {
    const needed = this.length + Buffer.byteLength(text)
    if (needed > this.buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2))
      this.buffer.copy(grown, 0, 0, this.length)
      this.buffer = grown
    }
    this.length += this.buffer.write(text, this.length)
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length)
  }
}

export const success = (data: unknown, warnings: ReadonlyArray<string> = []) =>
  HttpServerResponse.unsafeJson(
    warnings.length === 0 ? { status: "success", data } : { status: "success", data, warnings }
  )

const STATUS: Record<typeof PromQLErrorType.Type, number> = {
  bad_data: 400,
  execution: 422,
  timeout: 503,
  canceled: 503,
  internal: 500
}

export const failure = (errorType: typeof PromQLErrorType.Type, error: string) =>
  HttpServerResponse.unsafeJson(
    { status: "error", errorType, error },
    { status: STATUS[errorType] }
  )

/** A `PromQLError` as Prometheus words it: the parameter at fault first, when there is one. */
export const failureOf = (error: PromQLError) =>
  failure(
    error.errorType,
    error.parameter === undefined
      ? error.message
      : `invalid parameter "${error.parameter}": ${error.message}`
  )
