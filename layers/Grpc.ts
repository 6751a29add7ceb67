/** The OTLP/gRPC transport: the collector's `Export` services over the capabilities. */
export { OtlpGrpcServerLive as GrpcLive } from "../src/otlp/grpc/OtlpGrpcServer.js"
