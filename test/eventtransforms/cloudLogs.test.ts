/** `cloud-logs` on its own: one row per log event with the envelope, plain or gzip. */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { EventTransforms } from "../../domain/EventTransforms.js"
import { EventTransformsLive } from "../../src/eventtransforms/EventTransformsLive.js"
import { controlMessage, subscription } from "./fixtures.js"

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value))
const MAX = 1024 * 1024

const flatten = (payload: Uint8Array, max = MAX) =>
  Effect.flatMap(EventTransforms, (t) => t.cloudLogs(payload, max)).pipe(
    Effect.map((rows) => rows.rows.map((row) => JSON.parse(row) as Record<string, unknown>))
  )

const events = [
  { id: "3719", timestamp: 1763771766000, message: "plain text line" },
  {
    id: "3720",
    timestamp: 1763771766123,
    message: '{"level":"error","order":{"id":12345678901234567890},"msg":"declined"}'
  }
]

layer(EventTransformsLive)("cloud-logs transform", (it) => {
  describe("rows", () => {
    it.effect("one row per log event, carrying the envelope fields", () =>
      Effect.gen(function* () {
        const rows = yield* flatten(bytes(subscription(events)))
        expect(rows).toHaveLength(2)
        expect(rows[0]).toEqual({
          messageType: "DATA_MESSAGE",
          owner: "123456789012",
          logGroup: "/aws/lambda/checkout",
          logStream: "2026/11/22/[$LATEST]0123456789abcdef",
          subscriptionFilters: ["to-sluice"],
          id: "3719",
          timestamp: "2025-11-22T00:36:06.000Z",
          message: "plain text line"
        })
      })
    )

    it.effect("a JSON message is also kept parsed in message_json, digits intact", () =>
      Effect.gen(function* () {
        const transforms = yield* EventTransforms
        const { rows } = yield* transforms.cloudLogs(bytes(subscription(events)), MAX)
        expect(JSON.parse(rows[1]!)).toMatchObject({
          message: events[1]!.message,
          message_json: { level: "error", msg: "declined" }
        })
        // The parsed copy is the message's own text: a 20-digit id keeps every digit.
        expect(rows[1]).toContain(
          '"message_json":{"level":"error","order":{"id":12345678901234567890}'
        )
        expect(JSON.parse(rows[0]!)).not.toHaveProperty("message_json")
      })
    )

    it.effect("gzip payloads are found by their magic bytes", () =>
      Effect.gen(function* () {
        const rows = yield* flatten(gzipSync(JSON.stringify(subscription(events))))
        expect(rows.map((r) => r.id)).toEqual(["3719", "3720"])
      })
    )

    it.effect("a control message is acknowledged with no rows", () =>
      Effect.gen(function* () {
        expect(yield* flatten(bytes(controlMessage))).toEqual([])
        expect(yield* flatten(gzipSync(JSON.stringify(controlMessage)))).toEqual([])
      })
    )

    it.effect("unknown envelope and event fields are kept", () =>
      Effect.gen(function* () {
        const payload = {
          ...subscription([]),
          logEvents: [{ ...events[0]!, extractedFields: { status: "200" } }],
          policyLevel: "ACCOUNT_LEVEL_POLICY"
        }
        const [row] = yield* flatten(bytes(payload))
        expect(row).toMatchObject({
          policyLevel: "ACCOUNT_LEVEL_POLICY",
          extractedFields: { status: "200" }
        })
      })
    )
  })

  describe("bad payloads", () => {
    it.effect("not JSON, not a subscription, corrupt gzip, too large once inflated", () =>
      Effect.gen(function* () {
        const transforms = yield* EventTransforms
        const fail = (payload: Uint8Array, max = MAX) =>
          Effect.flip(transforms.cloudLogs(payload, max))
        const notJson = yield* fail(new TextEncoder().encode("hello"))
        expect(notJson._tag).toBe("BadRequest")
        expect(notJson.message).toContain("not JSON")
        const wrong = yield* fail(bytes({ logEvents: "nope" }))
        expect(wrong.message).toContain("not a log subscription")
        const corrupt = yield* fail(gzipSync("{}").subarray(0, 12))
        expect(corrupt.message).toContain("cannot be inflated")
        const big = gzipSync(
          JSON.stringify(subscription([{ ...events[0]!, message: "x".repeat(5000) }]))
        )
        const tooLarge = yield* fail(big, 1000)
        expect(tooLarge._tag).toBe("PayloadTooLarge")
      })
    )
  })
})
