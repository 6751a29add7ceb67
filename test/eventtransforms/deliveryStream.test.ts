/**
 * `delivery-stream` on its own: the spec's five decoding rules, one test each, then
 * gzip records, newline-separated JSON, forwarded log subscriptions and common attributes.
 */
import { describe, expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import {
  DeliveryStreamBatch,
  DeliveryStreamContext,
  EventTransforms
} from "../../domain/EventTransforms.js"
import { EventTransformsLive } from "../../src/eventtransforms/EventTransformsLive.js"
import { b64, batch, controlMessage, gzB64, subscription } from "./fixtures.js"

const MAX = 1024 * 1024

const run = (
  data: ReadonlyArray<string>,
  attributes: Record<string, string> = {},
  extra: { readonly columns?: string } = {}
) =>
  Effect.flatMap(EventTransforms, (t) =>
    t.deliveryStream(
      new DeliveryStreamBatch({ ...batch("req-1", data), ...extra }),
      new DeliveryStreamContext({ commonAttributes: attributes, maxBytes: MAX })
    )
  )

const rows = (data: ReadonlyArray<string>, attributes: Record<string, string> = {}) =>
  Effect.map(run(data, attributes), (r) => r.rows.map((row) => JSON.parse(row) as unknown))

layer(EventTransformsLive)("delivery-stream transform", (it) => {
  describe("decoding rules", () => {
    it.effect("1. a JSON object is one row", () =>
      Effect.gen(function* () {
        expect(yield* rows([b64('{"a":1,"b":{"c":"x"}}')])).toEqual([{ a: 1, b: { c: "x" } }])
      })
    )

    it.effect("2. an array of JSON objects is one row per object", () =>
      Effect.gen(function* () {
        expect(yield* rows([b64('[{"a":1},{"a":2}]'), b64("[]")])).toEqual([{ a: 1 }, { a: 2 }])
      })
    )

    it.effect("3. TSV text with columns is one row per line under those names", () =>
      Effect.gen(function* () {
        const tsv = b64("GET\t/checkout\t200\nPOST\t/pay\\tment\t502\n")
        const fromAttribute = yield* rows([tsv], { columns: "method,path,status" })
        expect(fromAttribute).toEqual([
          { method: "GET", path: "/checkout", status: "200" },
          { method: "POST", path: "/pay\tment", status: "502" }
        ])
        const fromBatch = yield* run([tsv], {}, { columns: "method\tpath\tstatus" })
        expect(fromBatch.rows).toHaveLength(2)
      })
    )

    it.effect(
      "3. the insert's columns parameter comes after the batch's, before the attribute",
      () =>
        Effect.gen(function* () {
          const tsv = b64("GET\t/checkout\n")
          const named = (columns: string | undefined, extra: { readonly columns?: string } = {}) =>
            Effect.flatMap(EventTransforms, (t) =>
              t.deliveryStream(
                new DeliveryStreamBatch({ ...batch("req-1", [tsv]), ...extra }),
                new DeliveryStreamContext({
                  commonAttributes: { columns: "a,b" },
                  maxBytes: MAX,
                  columns
                })
              )
            ).pipe(Effect.map((r) => r.rows.map((row) => JSON.parse(row) as unknown)))
          expect(yield* named("method,path")).toEqual([{ method: "GET", path: "/checkout" }])
          expect(yield* named(undefined)).toEqual([{ a: "GET", b: "/checkout" }])
          expect(yield* named("method,path", { columns: "verb,url" })).toEqual([
            { verb: "GET", url: "/checkout" }
          ])
        })
    )

    it.effect("4. TSV text without columns is one row with the text in `data`", () =>
      Effect.gen(function* () {
        const text = "GET\t/checkout\t200\nPOST\t/pay\t502\n"
        expect(yield* rows([b64(text), b64("42")])).toEqual([{ data: text }, { data: "42" }])
      })
    )

    it.effect("5. anything else is a 400 naming the record", () =>
      Effect.gen(function* () {
        const fail = (data: string, attributes: Record<string, string> = {}) =>
          Effect.flip(run([b64('{"ok":1}'), data], attributes))
        const binary = yield* fail(b64(new Uint8Array([0x00, 0xff, 0xfe, 0x01])))
        expect(binary._tag).toBe("BadRequest")
        expect(binary.message).toBe(
          "Record 1 (records[1]) is neither JSON nor UTF-8 text (binary data)."
        )
        expect((yield* fail(b64("ab\u0001cd"))).message).toContain("records[1]")
        expect((yield* fail(b64('{"broken":'))).message).toContain(
          "looks like JSON but does not parse"
        )
        expect((yield* fail(b64("[1,2]"))).message).toContain("element 0 is not an object")
        expect((yield* fail("***not base64***")).message).toContain("not base64")
        const shifted = yield* fail(b64("a\tb\n"), { columns: "x,y,z" })
        expect(shifted.message).toContain("line 1 has 2 TSV fields but 3 columns")
      })
    )
  })

  describe("beyond the rules", () => {
    it.effect("gzip records are inflated, then decoded by the same rules", () =>
      Effect.gen(function* () {
        expect(yield* rows([gzB64('{"z":1}'), gzB64("plain text")])).toEqual([
          { z: 1 },
          { data: "plain text" }
        ])
      })
    )

    it.effect("newline-separated JSON objects in one record are one row each", () =>
      Effect.gen(function* () {
        expect(yield* rows([b64('{"n":1}\n{"n":2}\n\n{"n":3}\n')])).toEqual([
          { n: 1 },
          { n: 2 },
          { n: 3 }
        ])
      })
    )

    it.effect("a forwarded gzip log subscription flattens to one row per log event", () =>
      Effect.gen(function* () {
        const payload = subscription([
          { id: "1", timestamp: 1763771766000, message: "first" },
          { id: "2", timestamp: 1763771767000, message: '{"k":"v"}' }
        ])
        const out = yield* rows([
          gzB64(JSON.stringify(payload)),
          gzB64(JSON.stringify(controlMessage))
        ])
        expect(out).toEqual([
          expect.objectContaining({ logGroup: "/aws/lambda/checkout", id: "1", message: "first" }),
          expect.objectContaining({ id: "2", message_json: { k: "v" } })
        ])
      })
    )

    it.effect("common attributes are added to every row; a row's own field wins", () =>
      Effect.gen(function* () {
        const out = yield* rows([b64('{"env":"mine","a":1}'), b64("text"), b64("{}")], {
          env: "prod",
          team: "payments"
        })
        expect(out).toEqual([
          { env: "mine", a: 1, team: "payments" },
          { data: "text", env: "prod", team: "payments" },
          { env: "prod", team: "payments" }
        ])
      })
    )

    it.effect("JSON record text is kept exactly (big integers keep every digit)", () =>
      Effect.gen(function* () {
        const out = yield* run([b64('{\n  "id": 123456789012345678901\n}')])
        expect(out.rows).toEqual(['{   "id": 123456789012345678901 }'])
      })
    )

    it.effect("gzip records past the byte budget are a 413", () =>
      Effect.gen(function* () {
        const transforms = yield* EventTransforms
        const error = yield* Effect.flip(
          transforms.deliveryStream(
            new DeliveryStreamBatch(batch("r", [b64(gzipSync("x".repeat(10_000)))])),
            new DeliveryStreamContext({ commonAttributes: {}, maxBytes: 1000 })
          )
        )
        expect(error._tag).toBe("PayloadTooLarge")
      })
    )
  })
})
