/** Requests shaped like the real senders', and SQL over the query API, for the HTTP suites. */
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import type { RunningServer } from "../support/server.js"
import { adminKeyOf, call } from "../support/server.js"

export const ARN = "arn:aws:firehose:eu-west-1:123456789012:deliverystream/to-sluice"

export interface FirehoseOptions {
  readonly requestId: string
  /** The stream's configured access key; `null` sends no access-key header. */
  readonly accessKey: string | null
  readonly attributes?: Record<string, string>
  /** The stream's "GZIP content encoding" setting. */
  readonly gzip?: boolean
  readonly transform?: string
  /** The `columns` parameter (TSV column names), as one client sends them. */
  readonly columns?: string
}

/** A POST exactly as a delivery stream's HTTP endpoint destination makes it. */
export const firehose = (
  server: RunningServer,
  table: string,
  body: unknown,
  options: FirehoseOptions
) => {
  const json = JSON.stringify(body)
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "user-agent": "Amazon Kinesis Data Firehose Agent/1.0",
    "x-amz-firehose-protocol-version": "1.0",
    "x-amz-firehose-request-id": options.requestId,
    "x-amz-firehose-source-arn": ARN
  }
  if (options.accessKey !== null) headers["x-amz-firehose-access-key"] = options.accessKey
  if (options.attributes !== undefined) {
    headers["x-amz-firehose-common-attributes"] = JSON.stringify({
      commonAttributes: options.attributes
    })
  }
  if (options.gzip === true) headers["content-encoding"] = "gzip"
  return call(
    server,
    "POST",
    `/v1/tables/${table}?transform=${options.transform ?? "delivery-stream"}` +
      (options.columns === undefined ? "" : `&columns=${encodeURIComponent(options.columns)}`),
    {
      rawBody: options.gzip === true ? gzipSync(json) : json,
      headers
    }
  )
}

/** Rows of a query through `POST /v1/query` (JSONEachRow). */
export const query = (server: RunningServer, sql: string) =>
  Effect.gen(function* () {
    const reply = yield* call(server, "POST", "/v1/query", {
      token: adminKeyOf(server),
      body: { sql, format: "JSONEachRow" }
    })
    if (reply.status !== 200) return yield* Effect.die(new Error(`${reply.status} ${reply.text}`))
    return reply.text
      .split("\n")
      .filter((line) => line.length > 0)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
  })

/** Rows in `table`, 0 when it does not exist (a refused first insert creates nothing). */
export const countOf = (server: RunningServer, table: string) =>
  Effect.gen(function* () {
    const reply = yield* call(server, "POST", "/v1/query", {
      token: adminKeyOf(server),
      body: { sql: `SELECT count() AS c FROM ${table}`, format: "JSONEachRow" }
    })
    if (reply.status !== 200) return 0
    return Number((JSON.parse(reply.text) as { c: string }).c)
  })
