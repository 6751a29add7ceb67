/** Payloads in the shapes the real sources send, for the transform suites. */
import { gzipSync } from "node:zlib"

export const subscription = (
  events: ReadonlyArray<{
    readonly id: string
    readonly timestamp: number
    readonly message: string
  }>,
  messageType = "DATA_MESSAGE"
) => ({
  messageType,
  owner: "123456789012",
  logGroup: "/aws/lambda/checkout",
  logStream: "2026/11/22/[$LATEST]0123456789abcdef",
  subscriptionFilters: ["to-sluice"],
  logEvents: events
})

export const controlMessage = {
  messageType: "CONTROL_MESSAGE",
  owner: "CloudwatchLogs",
  logGroup: "",
  logStream: "",
  subscriptionFilters: [],
  logEvents: [
    {
      id: "",
      timestamp: 1763771766000,
      message: "CWL CONTROL MESSAGE: Checking health of destination Firehose."
    }
  ]
}

export const auditEvent = (id: string, eventName = "GetObject") => ({
  eventVersion: "1.09",
  userIdentity: { type: "IAMUser", principalId: "AIDAEXAMPLE", accountId: "123456789012" },
  eventTime: "2026-11-22T00:30:12Z",
  eventSource: "s3.amazonaws.com",
  eventName,
  awsRegion: "eu-west-1",
  sourceIPAddress: "203.0.113.7",
  requestParameters: { bucketName: "invoices", key: "2026/11/a.pdf" },
  eventID: id,
  readOnly: true,
  eventType: "AwsApiCall",
  recipientAccountId: "123456789012"
})

export const b64 = (data: string | Uint8Array) => Buffer.from(data).toString("base64")
export const gzB64 = (data: string) => Buffer.from(gzipSync(data)).toString("base64")

/** A delivery-stream request body: what the stream POSTs to an HTTP endpoint. */
export const batch = (requestId: string, data: ReadonlyArray<string>) => ({
  requestId,
  timestamp: 1763771766123,
  records: data.map((d) => ({ data: d }))
})
