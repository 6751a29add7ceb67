/**
 * The OTLP/gRPC server (`SLUICE_GRPC_PORT`): the collector's three `Export` services,
 * started with the layer and drained when its scope closes. Requests are decompressed
 * (gzip, deflate) by grpc-js, which caps the inflated message at the receive limit.
 */
import { Server, ServerCredentials } from "@grpc/grpc-js"
import type { sendUnaryData, ServerUnaryCall, ServiceDefinition } from "@grpc/grpc-js"
import { Cause, Context, Effect, Exit, Fiber, Layer, Option, Runtime } from "effect"
import { cannotListen } from "../../config/CannotListen.js"
import { SluiceConfig } from "../../config/SluiceConfig.js"
import { LogsService } from "../gen/opentelemetry/proto/collector/logs/v1/logs_service_pb.js"
import { MetricsService } from "../gen/opentelemetry/proto/collector/metrics/v1/metrics_service_pb.js"
import { TraceService } from "../gen/opentelemetry/proto/collector/trace/v1/trace_service_pb.js"
import type { OtlpSignal } from "../../../domain/OtlpExports.js"
import { OTLP_BODY_LIMIT } from "../native/OtlpBody.js"
import { makeGrpcExport } from "./GrpcExport.js"
import { lostEngine } from "../../engine/EngineAccess.js"
import { grpcError, internalError } from "./GrpcStatus.js"

/** The running server; `port` is the bound one (useful when configured as 0). */
export class OtlpGrpcServer extends Context.Tag("sluice/OtlpGrpcServer")<
  OtlpGrpcServer,
  { readonly port: number }
>() {}

type Export = Effect.Effect.Success<typeof makeGrpcExport>

const services = { traces: TraceService, logs: LogsService, metrics: MetricsService } as const

const bytesOf = (buffer: Buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.length)
const bufferOf = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length)

// Both directions stay raw bytes here: the generated code decodes in `decodeExport` and
// encodes in `responseBinary`, where a failure can become the right status.
const definition = (signal: OtlpSignal): ServiceDefinition => {
  const service = services[signal]
  return {
    [service.method.export.name]: {
      path: `/${service.typeName}/${service.method.export.name}`,
      requestStream: false,
      responseStream: false,
      requestSerialize: bufferOf,
      requestDeserialize: bytesOf,
      responseSerialize: bufferOf,
      responseDeserialize: bytesOf
    }
  }
}

const handler =
  (runtime: Runtime.Runtime<never>, grpcExport: Export, signal: OtlpSignal) =>
  (call: ServerUnaryCall<Uint8Array, Uint8Array>, callback: sendUnaryData<Uint8Array>) => {
    const fiber = Runtime.runFork(runtime)(grpcExport(signal, call.metadata, call.request))
    call.on("cancelled", () => Effect.runFork(Fiber.interrupt(fiber)))
    fiber.addObserver((exit) => {
      if (Exit.isSuccess(exit)) return callback(null, exit.value)
      if (Cause.isInterruptedOnly(exit.cause)) return
      const failure = Cause.failureOption(exit.cause)
      if (Option.isSome(failure)) return callback(grpcError(failure.value))
      const lost = lostEngine(Option.getOrUndefined(Cause.dieOption(exit.cause)))
      if (lost !== undefined) return callback(grpcError(lost))
      const traceId = crypto.randomUUID()
      Runtime.runFork(runtime)(
        Effect.logError("OTLP/gRPC export failed", exit.cause).pipe(
          Effect.annotateLogs({ traceId, signal })
        )
      )
      callback(internalError(traceId))
    })
  }

const bind = (server: Server, address: string) =>
  Effect.async<number, Error>((resume) =>
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
      resume(error === null ? Effect.succeed(port) : Effect.fail(error))
    )
  )

// Lets calls in flight finish, for a while; then closes whatever is left.
const shutdown = (server: Server) =>
  Effect.async<void>((resume) => server.tryShutdown(() => resume(Effect.void))).pipe(
    Effect.timeoutTo({ duration: "5 seconds", onSuccess: () => true, onTimeout: () => false }),
    Effect.flatMap((drained) => (drained ? Effect.void : Effect.sync(() => server.forceShutdown())))
  )

export const OtlpGrpcServerLive = Layer.scoped(
  OtlpGrpcServer,
  Effect.gen(function* () {
    const { host, grpcPort } = yield* SluiceConfig
    const runtime = yield* Effect.runtime<never>()
    const grpcExport = yield* makeGrpcExport
    const server = new Server({ "grpc.max_receive_message_length": OTLP_BODY_LIMIT })
    for (const signal of ["traces", "logs", "metrics"] as const) {
      server.addService(definition(signal), { Export: handler(runtime, grpcExport, signal) })
    }
    const address = `${host.includes(":") ? `[${host}]` : host}:${grpcPort}`
    const port = yield* Effect.acquireRelease(
      bind(server, address).pipe(
        Effect.mapError((e) => cannotListen("OTLP/gRPC", "SLUICE_GRPC_PORT", address, e))
      ),
      () => shutdown(server)
    )
    yield* Effect.logInfo(`OTLP/gRPC listening on ${host}:${port}`)
    return { port }
  })
)
