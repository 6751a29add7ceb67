/**
 * The reference servers of `bench pipeline`, one per process: `node --import tsx
 * pipelineServers.ts <node|router|api>` answers `GET /health` with `{"status":"ok"}` on
 * a free loopback port and prints `listening <port>`. `node` is `node:http` alone,
 * `router` Effect's `HttpRouter` served by `@effect/platform-node`, `api` one
 * `HttpApiBuilder` endpoint with its success schema (what sluice's API is built of).
 */
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiEndpoint,
  HttpApiGroup,
  HttpRouter,
  HttpServer,
  HttpServerResponse
} from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import { Effect, Layer, Schema } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

const announce = (server: http.Server) =>
  server.once("listening", () => console.log(`listening ${(server.address() as AddressInfo).port}`))

/** Node's server, announced once it listens; Effect's layers listen on it. */
const created = () => {
  const server = http.createServer()
  announce(server)
  return server
}

const onLoopback = NodeHttpServer.layer(created, { port: 0, host: "127.0.0.1" })

class Health extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("health", "/health").addSuccess(Schema.Struct({ status: Schema.String }))
) {}
class ReferenceApi extends HttpApi.make("reference").add(Health) {}

const kind = process.argv[2]
if (kind === "node") {
  const server = http.createServer((_, response) => {
    response.writeHead(200, { "content-type": "application/json" })
    response.end('{"status":"ok"}')
  })
  announce(server)
  server.listen(0, "127.0.0.1")
} else if (kind === "router") {
  const app = HttpRouter.empty.pipe(
    HttpRouter.get("/health", HttpServerResponse.json({ status: "ok" }))
  )
  NodeRuntime.runMain(Layer.launch(HttpServer.serve(app).pipe(Layer.provide(onLoopback))))
} else if (kind === "api") {
  const handlers = HttpApiBuilder.group(ReferenceApi, "health", (group) =>
    group.handle("health", () => Effect.succeed({ status: "ok" }))
  )
  const api = HttpApiBuilder.api(ReferenceApi).pipe(Layer.provide(handlers))
  NodeRuntime.runMain(
    Layer.launch(HttpApiBuilder.serve().pipe(Layer.provide(api), Layer.provide(onLoopback)))
  )
} else {
  console.error("usage: pipelineServers.ts <node|router|api>")
  process.exit(2)
}
