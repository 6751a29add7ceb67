/**
 * Compressed bodies that would cost the server far more than their size, sent to the
 * insert endpoint: a zstd frame declaring a 512 MiB window, one of tiny blocks under a
 * large window, a zstd and a gzip bomb. Each is answered at once in the documented
 * shape, for little CPU, and nothing is stored.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { TestServer, adminKeyOf, call, freshDataDir } from "../support/server.js"
import { rleFrame } from "../support/zstdFrames.js"

const post = (body: Uint8Array, encoding: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    // The server runs in this process: its CPU for the request is this process's.
    const before = process.cpuUsage()
    const reply = yield* call(server, "POST", "/v1/tables/bombs", {
      token: adminKeyOf(server),
      rawBody: body,
      headers: { "content-type": "application/json", "content-encoding": encoding }
    })
    const used = process.cpuUsage(before)
    return { reply, cpuMs: (used.user + used.system) / 1000 }
  })

layer(TestServer.layer(freshDataDir()), { excludeTestServices: true, timeout: 120_000 })(
  "compression bombs",
  (it) => {
    it.effect("a zstd frame declaring a 512 MiB window is a 400 before any decoding", () =>
      Effect.gen(function* () {
        const { reply, cpuMs } = yield* post(rleFrame(29, 4000, 128 * 1024), "zstd")
        expect(reply.status).toBe(400)
        expect(reply.json).toMatchObject({
          error: "bad_request",
          message: expect.stringContaining("512 MiB window; at most 8 MiB"),
          hint: expect.stringContaining("window of at most 8 MiB")
        })
        // It took 189 s of CPU before the window was capped.
        expect(cpuMs).toBeLessThan(5000)
      })
    )

    it.effect("tiny zstd blocks under an 8 MiB window are a 400", () =>
      Effect.gen(function* () {
        const { reply, cpuMs } = yield* post(rleFrame(23, 16_000, 1), "zstd")
        expect(reply.status).toBe(400)
        expect(reply.json).toMatchObject({ message: expect.stringContaining("too small") })
        expect(cpuMs).toBeLessThan(5000)
      })
    )

    it.effect("zstd and gzip bombs are 413s once they pass 256 times their size", () =>
      Effect.gen(function* () {
        const zstd = yield* post(rleFrame(23, 4000, 128 * 1024), "zstd")
        expect(zstd.reply.status).toBe(413)
        expect(zstd.reply.json).toMatchObject({
          error: "payload_too_large",
          message: expect.stringContaining("more than 256 times its size")
        })
        const gzip = yield* post(gzipSync(Buffer.alloc(64 * 1024 * 1024, " ")), "gzip")
        expect(gzip.reply.status).toBe(413)
        expect(gzip.reply.json).toMatchObject({
          message: expect.stringContaining("more than 256 times its size")
        })
        const server = yield* TestServer
        const table = yield* call(server, "GET", "/v1/tables/bombs", { token: adminKeyOf(server) })
        expect(table.status).toBe(404)
      })
    )
  }
)
