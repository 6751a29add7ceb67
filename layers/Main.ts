/** The program `npm start` runs: the server on the infrastructure the environment picks. */
import { Layer } from "effect"
import { SluiceConfig } from "../src/config/SluiceConfig.js"
import { OtlpGrpcServerLive } from "../src/otlp/grpc/OtlpGrpcServer.js"
import { InfrastructureLive } from "./Infrastructure.js"
import { ServerLive } from "./Server.js"

// The gRPC server starts after the HTTP server, on the same services.
export const MainLive = OtlpGrpcServerLive.pipe(
  Layer.provideMerge(ServerLive),
  Layer.provide(InfrastructureLive),
  Layer.provide(SluiceConfig.layer)
)
