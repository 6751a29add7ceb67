/**
 * The typed client's transport (`src/cli/NodeHttpClient.ts`) against a real HTTP server
 * of Node's: what it sends (method, headers, a JSON body with its length), what it hands
 * back (status, every header, the body; none for a 204), a refused connection as a
 * transport error, and an interrupted call ending its request on the server.
 */
import { createServer } from "node:http"
import type { IncomingMessage, Server, ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import * as Cookies from "@effect/platform/Cookies"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { nodeHttpClient } from "../../src/cli/NodeHttpClient.js"

interface Seen {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

interface Serving {
  readonly url: string
  /** Each request the server read whole. */
  readonly seen: Array<Seen>
  /** The paths of requests whose connection closed before their answer was out. */
  readonly closed: Array<string>
  readonly server: Server
}

/** A server answering with `answer`, recording each request it read whole. */
const serving = (answer: (seen: Seen, response: ServerResponse) => void) =>
  Effect.acquireRelease(
    Effect.async<Serving>((resume) => {
      const seen: Array<Seen> = []
      const closed: Array<string> = []
      const server = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const one = {
            method: request.method ?? "",
            url: request.url ?? "",
            headers: request.headers,
            body: Buffer.concat(chunks).toString()
          }
          seen.push(one)
          answer(one, response)
        })
        response.on("close", () => {
          if (!response.writableEnded) closed.push(request.url ?? "")
        })
      })
      server.listen(0, "127.0.0.1", () =>
        resume(
          Effect.succeed({
            url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
            seen,
            closed,
            server
          })
        )
      )
    }),
    ({ server }) =>
      Effect.async<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  )

const client = nodeHttpClient({ "x-service-client": "sluice-cli" })

describe("the CLI's HTTP transport", () => {
  it.scoped(
    "sends the method, the headers and a JSON body; hands back status, headers, cookies and body",
    () =>
      Effect.gen(function* () {
        const server = yield* serving((_, response) => {
          response.setHeader("set-cookie", ["a=1", "b=2"])
          response.writeHead(201, { "content-type": "application/json", "x-reply": "yes" })
          response.end(JSON.stringify({ made: "ünïcode" }))
        })
        const request = yield* HttpClientRequest.post(`${server.url}/v1/things?x=1`).pipe(
          HttpClientRequest.setHeader("authorization", "Bearer rt_test"),
          HttpClientRequest.bodyJson({ name: "ä" })
        )
        const response = yield* client.execute(request)
        expect(response.status).toBe(201)
        expect(response.headers["x-reply"]).toBe("yes")
        expect(Cookies.toRecord(response.cookies)).toEqual({ a: "1", b: "2" })
        expect(yield* response.json).toEqual({ made: "ünïcode" })
        const [seen] = server.seen
        expect(seen?.method).toBe("POST")
        expect(seen?.url).toBe("/v1/things?x=1")
        expect(seen?.headers.authorization).toBe("Bearer rt_test")
        expect(seen?.headers["x-service-client"]).toBe("sluice-cli")
        expect(seen?.headers["content-type"]).toBe("application/json")
        expect(seen?.headers["content-length"]).toBe(String(Buffer.byteLength('{"name":"ä"}')))
        expect(seen?.body).toBe('{"name":"ä"}')
      })
  )

  it.scoped("a 204 has no body; an error status is an answer, not a failure", () =>
    Effect.gen(function* () {
      const server = yield* serving((seen, response) => {
        if (seen.url === "/gone") {
          response.writeHead(204)
          response.end()
        } else {
          response.writeHead(404, { "content-type": "application/json" })
          response.end('{"error":"not_found","message":"No such thing."}')
        }
      })
      const gone = yield* client.execute(HttpClientRequest.del(`${server.url}/gone`))
      expect(gone.status).toBe(204)
      expect(yield* gone.text).toBe("")
      expect(server.seen[0]?.headers["content-length"]).toBeUndefined()
      const missing = yield* client.execute(HttpClientRequest.get(`${server.url}/missing`))
      expect(missing.status).toBe(404)
      expect(yield* missing.json).toEqual({ error: "not_found", message: "No such thing." })
    })
  )

  it.effect("a refused connection is a transport error", () =>
    Effect.gen(function* () {
      const error = yield* client
        .execute(HttpClientRequest.get("http://127.0.0.1:9/"))
        .pipe(Effect.flip)
      expect(error._tag).toBe("RequestError")
      expect(error._tag === "RequestError" && error.reason).toBe("Transport")
    })
  )

  it.scoped("an interrupted call ends its request on the server", () =>
    Effect.gen(function* () {
      const asked = yield* Deferred.make<void>()
      const server = yield* serving(() => Deferred.unsafeDone(asked, Effect.void))
      const call = yield* Effect.fork(client.execute(HttpClientRequest.get(`${server.url}/slow`)))
      yield* Deferred.await(asked)
      yield* Fiber.interrupt(call)
      yield* Effect.promise(
        () =>
          new Promise<void>((resolve) => {
            const look = () => (server.closed.includes("/slow") ? resolve() : setTimeout(look, 10))
            look()
          })
      )
      expect(server.closed).toEqual(["/slow"])
    })
  )
})
