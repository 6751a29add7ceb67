/**
 * The URL fetcher's guard: non-public addresses in every spelling are refused at connect
 * time, for the first hop and for redirects; the allow list (by host, address, CIDR and
 * port) opens them; size and time are bounded.
 */
import { describe, expect, it } from "@effect/vitest"
import { Chunk, Effect, Either, Stream } from "effect"
import * as http from "node:http"
import * as net from "node:net"
import type { AddressInfo } from "node:net"
import type { UrlFetchLimits } from "../../src/ingest/UrlFetch.js"
import { fetchUrl } from "../../src/ingest/UrlFetch.js"
import type { AllowList } from "../../src/config/UrlAllowList.js"
import { emptyAllowList, parseAllowList } from "../../src/config/UrlAllowList.js"
import { mayConnect } from "../../src/ingest/SsrfGuard.js"

const FILE = '{"a":1}\n{"a":2}\n'

const handler: http.RequestListener = (req, res) => {
  const url = new URL(req.url ?? "/", "http://x")
  if (url.pathname === "/file.ndjson") {
    res.writeHead(200, { "content-type": "application/x-ndjson" }).end(FILE)
  } else if (url.pathname === "/redirect") {
    res.writeHead(302, { location: url.searchParams.get("to") ?? "/file.ndjson" }).end()
  } else if (url.pathname === "/loop") {
    res.writeHead(301, { location: "/loop" }).end()
  } else if (url.pathname === "/big") {
    res.writeHead(200, { "content-length": "5000" }).end("x".repeat(5000))
  } else if (url.pathname === "/big-chunked") {
    res.writeHead(200)
    for (let i = 0; i < 10; i++) res.write("y".repeat(500))
    res.end()
  } else if (url.pathname === "/slow") {
    res.writeHead(200)
    const drip = setInterval(() => res.write("z"), 100)
    res.on("close", () => clearInterval(drip))
  } else res.writeHead(404).end()
}

/** Two listeners on loopback, so one port can be allowed and the other not. */
const servers = Effect.acquireRelease(
  Effect.promise(async () => {
    const listen = () =>
      new Promise<http.Server>((resolve) => {
        const server = http.createServer(handler)
        server.listen(0, "127.0.0.1", () => resolve(server))
      })
    return [await listen(), await listen()] as const
  }),
  (all) => Effect.promise(() => Promise.all(all.map((s) => new Promise((r) => s.close(r)))))
).pipe(
  Effect.map(([a, b]) => ({
    a: (a.address() as AddressInfo).port,
    b: (b.address() as AddressInfo).port
  }))
)

const allowOf = (setting: string): AllowList => {
  const parsed = parseAllowList(setting)
  if (parsed._tag === "Left") throw new Error(parsed.error)
  return parsed.list
}

const limits = (overrides: Partial<UrlFetchLimits> = {}): UrlFetchLimits => ({
  allow: emptyAllowList,
  maxBytes: 1_000_000,
  timeoutSeconds: 10,
  ...overrides
})

/** Fetches and reads the whole body, or the error. */
const fetchText = (url: string, options: UrlFetchLimits) =>
  Effect.scoped(
    Effect.gen(function* () {
      const fetched = yield* fetchUrl(url, options)
      const chunks = yield* Stream.runCollect(fetched.body)
      const text = Buffer.concat(Chunk.toArray(chunks)).toString()
      return { ...fetched, text }
    })
  ).pipe(Effect.either)

const expectRefused = (url: string, options = limits()) =>
  Effect.gen(function* () {
    const result = yield* fetchText(url, options)
    expect(Either.isLeft(result), url).toBe(true)
    if (Either.isLeft(result)) {
      expect(result.left._tag, url).toBe("Forbidden")
      expect(result.left.hint).toContain("SLUICE_URL_INGEST_ALLOW")
      return result.left
    }
    throw new Error("unreachable")
  })

describe("URL fetch guard", () => {
  it.scoped("refuses loopback in every spelling, metadata and private addresses", () =>
    Effect.gen(function* () {
      const { a } = yield* servers
      for (const host of [
        "127.0.0.1",
        "localhost",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "2130706433",
        "0x7f000001",
        "0177.0.0.1",
        "127.1",
        "169.254.169.254",
        "10.0.0.1",
        "192.168.1.1",
        "100.64.0.1",
        "0.0.0.0",
        "[fe80::1]",
        "[fc00::1]"
      ]) {
        yield* expectRefused(`http://${host}:${a}/file.ndjson`)
      }
    })
  )

  it.scoped("refuses every v6 form that carries a non-public v4; no connection is made", () =>
    Effect.gen(function* () {
      // Listening on every address, so any of these forms that got through would reach it.
      const listener = yield* Effect.acquireRelease(
        Effect.promise(
          () =>
            new Promise<{ server: net.Server; connections: { count: number } }>((resolve) => {
              const connections = { count: 0 }
              const server = net.createServer((socket) => {
                connections.count++
                socket.destroy()
              })
              server.listen(0, "::", () => resolve({ server, connections }))
            })
        ),
        ({ server }) => Effect.promise(() => new Promise((r) => server.close(r)))
      )
      const port = (listener.server.address() as AddressInfo).port
      for (const host of [
        "[::127.0.0.1]",
        "[::7f00:1]",
        "[::ffff:0:7f00:1]",
        "[64:ff9b::7f00:1]",
        "[64:ff9b::127.0.0.1]",
        "[64:ff9b:1::7f00:1]",
        "[2002:7f00:1::]",
        "[2002:7f00:1::1]",
        "[2001:0:4136:e378:8000:63bf:80ff:fffe]",
        "[::a00:1]",
        "[::a9fe:a9fe]",
        "[64:ff9b::a9fe:a9fe]",
        "[2002:c0a8:101::]"
      ]) {
        yield* expectRefused(`http://${host}:${port}/file.ndjson`)
      }
      // A redirect hop to one of them is refused at its own connect.
      const { a } = yield* servers
      const allowA = limits({ allow: allowOf(`127.0.0.1:${a}`) })
      yield* expectRefused(
        `http://127.0.0.1:${a}/redirect?to=${encodeURIComponent(`http://[::7f00:1]:${port}/`)}`,
        allowA
      )
      expect(listener.connections.count).toBe(0)
      // Public v4 addresses carried by v6 stay as they were: the transition ranges are
      // refused whole, the old compatible form of a public address is not special.
      expect(mayConnect(emptyAllowList, "x", "::808:808", 80)).toBe(true)
      expect(mayConnect(emptyAllowList, "x", "64:ff9b::808:808", 80)).toBe(false)
    })
  )

  it.scoped("refuses a host name that resolves to loopback, without telling the address", () =>
    Effect.gen(function* () {
      const { a } = yield* servers
      const lookup = async () => [{ address: "127.0.0.1", family: 4 }]
      const error = yield* expectRefused(
        `http://files.example:${a}/file.ndjson`,
        limits({ lookup })
      )
      expect(error.message).toContain("files.example")
      expect(error.message).not.toContain("127.0.0.1")
      // One private answer among public ones refuses the name as a whole.
      const mixed = async () => [
        { address: "93.184.216.34", family: 4 },
        { address: "127.0.0.1", family: 4 }
      ]
      yield* expectRefused(`http://files.example:${a}/file.ndjson`, limits({ lookup: mixed }))
    })
  )

  it.scoped("refuses a redirect from an allowed server to a loopback address", () =>
    Effect.gen(function* () {
      const { a, b } = yield* servers
      const allow = allowOf(`127.0.0.1:${a}`)
      const direct = yield* fetchText(`http://127.0.0.1:${a}/file.ndjson`, limits({ allow }))
      expect(Either.isRight(direct)).toBe(true)
      for (const target of [
        `http://127.0.0.1:${b}/file.ndjson`,
        `http://[::1]:${a}/file.ndjson`,
        `http://169.254.169.254/latest/meta-data/`
      ]) {
        const error = yield* expectRefused(
          `http://127.0.0.1:${a}/redirect?to=${encodeURIComponent(target)}`,
          limits({ allow })
        )
        expect(error.message).toContain("Redirect 1")
        expect(error.message).not.toContain(target)
      }
    })
  )

  it.scoped("with the allow list naming 127.0.0.1, fetches, follows redirects and streams", () =>
    Effect.gen(function* () {
      const { a, b } = yield* servers
      const allow = allowOf("127.0.0.1")
      const target = `http://127.0.0.1:${b}/file.ndjson`
      const result = yield* fetchText(
        `http://127.0.0.1:${a}/redirect?to=${encodeURIComponent(target)}`,
        limits({ allow })
      )
      expect(Either.isRight(result)).toBe(true)
      if (Either.isRight(result)) {
        expect(result.right.text).toBe(FILE)
        expect(result.right.url).toBe(target)
        expect(result.right.contentType).toBe("application/x-ndjson")
      }
      const viaCidr = yield* fetchText(
        `http://127.0.0.1:${a}/file.ndjson`,
        limits({ allow: allowOf("127.0.0.0/8") })
      )
      expect(Either.isRight(viaCidr)).toBe(true)
    })
  )

  it.scoped("bounds size (declared and streamed), time and redirect hops", () =>
    Effect.gen(function* () {
      const { a } = yield* servers
      const allow = allowOf("127.0.0.1")
      const base = `http://127.0.0.1:${a}`
      const declared = yield* fetchText(`${base}/big`, limits({ allow, maxBytes: 1000 }))
      expect(Either.isLeft(declared) && declared.left._tag).toBe("PayloadTooLarge")
      const streamed = yield* fetchText(`${base}/big-chunked`, limits({ allow, maxBytes: 1000 }))
      expect(Either.isLeft(streamed) && streamed.left._tag).toBe("PayloadTooLarge")
      const slow = yield* fetchText(`${base}/slow`, limits({ allow, timeoutSeconds: 1 }))
      expect(Either.isLeft(slow) && slow.left.message).toContain("longer than 1 s")
      const loop = `${base}/loop`
      const hops = yield* fetchText(loop, limits({ allow, maxRedirects: 3 }))
      expect(Either.isLeft(hops) && hops.left.message).toContain("more than 3 times")
    })
  )

  it.effect("fetches http and https only, and reports bad URLs and statuses", () =>
    Effect.gen(function* () {
      for (const url of ["file:///etc/passwd", "ftp://example.com/x", "gopher://x/", "not a url"]) {
        const result = yield* fetchText(url, limits())
        expect(Either.isLeft(result) && result.left._tag, url).toBe("BadRequest")
      }
    })
  )

  it.scoped("a missing file is a 400 naming the status", () =>
    Effect.gen(function* () {
      const { a } = yield* servers
      const result = yield* fetchText(
        `http://127.0.0.1:${a}/nope`,
        limits({ allow: allowOf("127.0.0.1") })
      )
      expect(Either.isLeft(result) && result.left.message).toContain("404")
    })
  )
})

describe("allow list", () => {
  it("classifies addresses and parses entries", () => {
    const none = emptyAllowList
    expect(mayConnect(none, "x", "93.184.216.34", 80)).toBe(true)
    expect(mayConnect(none, "x", "2606:4700::1111", 443)).toBe(true)
    for (const address of [
      "127.0.0.1",
      "::1",
      "::ffff:127.0.0.1",
      "169.254.169.254",
      "64:ff9b::7f00:1",
      "2002:7f00:1::1",
      "255.255.255.255",
      "224.0.0.1"
    ])
      expect(mayConnect(none, "x", address, 80), address).toBe(false)
    const list = allowOf("10.0.0.0/8, files.internal:8443, [::1]:9000, 127.0.0.1")
    expect(mayConnect(list, "x", "10.1.2.3", 80)).toBe(true)
    expect(mayConnect(list, "files.internal", "192.168.0.7", 8443)).toBe(true)
    expect(mayConnect(list, "files.internal", "192.168.0.7", 80)).toBe(false)
    expect(mayConnect(list, "x", "::1", 9000)).toBe(true)
    expect(mayConnect(list, "x", "::1", 9001)).toBe(false)
    expect(mayConnect(list, "x", "::ffff:127.0.0.1", 1)).toBe(true)
    expect(mayConnect(list, "x", "192.168.0.7", 80)).toBe(false)
    for (const bad of ["10.0.0.0/99", "host:99999", "bad host", "a/b"])
      expect(parseAllowList(bad)._tag, bad).toBe("Left")
  })
})
