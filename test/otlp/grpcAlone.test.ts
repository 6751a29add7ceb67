/**
 * The OTLP/gRPC server on its own: the gRPC transport over the in-memory capabilities,
 * with no HTTP server in the composition. The official gRPC exporter's spans land in the
 * otlp-app's `traces` table, read back through `QueryRunner`.
 */
import { expect, layer } from "@effect/vitest"
import { ExportResultCode } from "@opentelemetry/core"
import { Effect, Layer, Redacted, Stream } from "effect"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import { GrpcLive } from "../../layers/Grpc.js"
import { InMemoryLive } from "../../layers/Test.js"
import { OtlpGrpcServer } from "../../src/otlp/grpc/OtlpGrpcServer.js"
import { adminKeyCaller, adminKeyOfFirstStart } from "../support/inMemory.js"
import { send, traceExporter } from "../support/otel.js"
import { spans } from "../support/otelData.js"

const composition = GrpcLive.pipe(
  Layer.provideMerge(InMemoryLive({ SLUICE_HOST: "127.0.0.1", SLUICE_GRPC_PORT: "0" }))
)

layer(composition, { excludeTestServices: true, timeout: 120_000 })("OTLP/gRPC alone", (it) => {
  it.effect("stores an exporter's spans without any HTTP server", () =>
    Effect.gen(function* () {
      const admin = yield* adminKeyCaller
      yield* (yield* AppRegistry).install(admin.clusterId, "otlp-app")
      const { port } = yield* OtlpGrpcServer
      const token = Redacted.value(yield* adminKeyOfFirstStart)
      const result = yield* send(
        traceExporter("grpc", { url: "unused", grpcPort: port, token }),
        spans(1, 3)
      )
      expect(result.code, String(result.error)).toBe(ExportResultCode.SUCCESS)

      const scope = yield* (yield* Authorization).clusterScope(admin, "query", {})
      const database = yield* (yield* DatabaseSelection).select(scope, undefined)
      const answer = yield* (yield* QueryRunner).run(
        scope,
        database,
        new QueryStatement({
          sql: "SELECT count() AS spans, uniqExact(TraceId) AS traces FROM traces",
          format: "JSONEachRow",
          queryId: "grpc-alone"
        })
      )
      const bytes =
        answer._tag === "Whole"
          ? Stream.make(answer.body)
          : Stream.concat(Stream.fromIterable(answer.head), answer.rest)
      const text = yield* bytes.pipe(Stream.decodeText(), Stream.mkString)
      expect(JSON.parse(text)).toEqual({ spans: "3", traces: "3" })
    })
  )
})
