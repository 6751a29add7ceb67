/** `cloud-audit` on its own: one row per event, each kept exactly as sent. */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { EventTransforms } from "../../domain/EventTransforms.js"
import { EventTransformsLive } from "../../src/eventtransforms/EventTransformsLive.js"
import { auditEvent } from "./fixtures.js"

const MAX = 1024 * 1024
const text = (s: string) => new TextEncoder().encode(s)

const flatten = (payload: Uint8Array) =>
  Effect.flatMap(EventTransforms, (t) => t.cloudAudit(payload, MAX)).pipe(
    Effect.map((rows) => rows.rows)
  )

layer(EventTransformsLive)("cloud-audit transform", (it) => {
  it.effect("a trail file {Records:[…]} gives one row per record, in order", () =>
    Effect.gen(function* () {
      const file = { Records: [auditEvent("e-1"), auditEvent("e-2", "PutObject")] }
      const rows = yield* flatten(text(JSON.stringify(file, null, 2)))
      expect(rows.map((r) => JSON.parse(r) as unknown)).toEqual(file.Records)
      // Pretty-printed input still gives one line per row.
      expect(rows.every((r) => !r.includes("\n"))).toBe(true)
    })
  )

  it.effect("a gzip trail file, as the trail writes it", () =>
    Effect.gen(function* () {
      const rows = yield* flatten(gzipSync(JSON.stringify({ Records: [auditEvent("e-9")] })))
      expect(rows.map((r) => (JSON.parse(r) as { eventID: string }).eventID)).toEqual(["e-9"])
    })
  )

  it.effect("a single event, an array of events, and an event-bus envelope", () =>
    Effect.gen(function* () {
      const single = yield* flatten(text(JSON.stringify(auditEvent("one"))))
      expect(single.map((r) => JSON.parse(r) as unknown)).toEqual([auditEvent("one")])
      const array = yield* flatten(text(JSON.stringify([auditEvent("a"), auditEvent("b")])))
      expect(array).toHaveLength(2)
      const bus = {
        version: "0",
        "detail-type": "AWS API Call via CloudTrail",
        source: "aws.s3",
        detail: auditEvent("bus-1")
      }
      const unwrapped = yield* flatten(text(JSON.stringify(bus)))
      expect(unwrapped.map((r) => JSON.parse(r) as unknown)).toEqual([auditEvent("bus-1")])
    })
  )

  it.effect("event text is kept exactly: big integers keep every digit", () =>
    Effect.gen(function* () {
      const raw =
        '{"Records":[{"eventID":"x","eventTime":"2026-11-22T00:30:12Z","bytes":123456789012345678901}]}'
      const rows = yield* flatten(text(raw))
      expect(rows).toEqual([
        '{"eventID":"x","eventTime":"2026-11-22T00:30:12Z","bytes":123456789012345678901}'
      ])
    })
  )

  it.effect("an empty trail file gives no rows; a record that is not an object is named", () =>
    Effect.gen(function* () {
      expect(yield* flatten(text('{"Records":[]}'))).toEqual([])
      const transforms = yield* EventTransforms
      const bad = yield* Effect.flip(
        transforms.cloudAudit(text(JSON.stringify({ Records: [auditEvent("ok"), 7] })), MAX)
      )
      expect(bad.message).toBe("Audit event 1 is not a JSON object.")
      const notJson = yield* Effect.flip(transforms.cloudAudit(text("{nope"), MAX))
      expect(notJson.message).toContain("not JSON")
    })
  )
})
