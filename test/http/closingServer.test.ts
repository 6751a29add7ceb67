/**
 * A server being closed lets go of its kept connections as their answers end, instead of
 * keeping each one its 75 idle seconds: a node stopped under load exits once its
 * in-flight requests are answered.
 */
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { createBodyLimitedServer, KEEP_ALIVE_MS } from "../../src/http/BodyLimitedServer.js"

const get = (agent: http.Agent, port: number) =>
  new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get({ host: "127.0.0.1", port, path: "/", agent }, resolve).on("error", reject)
  })

describe("closing the HTTP server", () => {
  it(
    "answers the request in flight with connection: close and ends without the idle wait",
    async () => {
      const server = createBodyLimitedServer()
      let release: () => void = () => {}
      const arrived = new Promise<void>((resolve) => {
        server.on("request", (_request, response) => {
          resolve()
          release = () => response.end("done")
        })
      })
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      const { port } = server.address() as AddressInfo
      const agent = new http.Agent({ keepAlive: true })

      const answer = get(agent, port)
      await arrived
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      release()
      const response = await answer
      expect(response.headers.connection).toBe("close")
      response.resume()
      // Resolves only once every connection is gone; before, this took KEEP_ALIVE_MS.
      await closed
      expect(server.listening).toBe(false)
      agent.destroy()
    },
    // Well under the idle time a kept connection would otherwise have held the close.
    KEEP_ALIVE_MS / 3
  )
})
