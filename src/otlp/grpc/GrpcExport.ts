/**
 * One OTLP/gRPC `Export` call: the bearer key and database from the call's metadata,
 * then the same target and ingest as OTLP/HTTP. The payload stays raw bytes until
 * `decodeExport`, so a malformed message is an INVALID_ARGUMENT rather than a transport
 * failure.
 */
import type { Metadata } from "@grpc/grpc-js"
import { Effect, Redacted } from "effect"
import { Unauthorized } from "../../../domain/Errors.js"
import { Authenticator } from "../../../domain/Identity.js"
import type { OtlpSignal } from "../../../domain/OtlpExports.js"
import { responseBinary } from "../native/OtlpResponse.js"
import { OtlpExports, tableHeader } from "../../../domain/OtlpExports.js"

const missing = new Unauthorized({
  message: "The call carries no bearer credential.",
  hint: "Send the metadata `authorization: Bearer rt_…` with a cluster API key."
})

/** The first value of a metadata key, as text. */
const text = (metadata: Metadata, key: string): string | undefined => {
  const [value] = metadata.get(key)
  if (value === undefined) return undefined
  return typeof value === "string" ? value : value.toString("utf8")
}

/** Serves one `Export` call; built once with the server. */
export const makeGrpcExport = Effect.gen(function* () {
  const authenticator = yield* Authenticator
  const exports = yield* OtlpExports
  return Effect.fn("OtlpGrpc.export")(function* (
    signal: OtlpSignal,
    metadata: Metadata,
    bytes: Uint8Array
  ) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(text(metadata, "authorization") ?? "")?.[1]
    if (token === undefined) return yield* missing
    const caller = yield* authenticator.authenticate(Redacted.make(token))
    const target = yield* exports.target(
      caller,
      signal,
      { database: text(metadata, "x-service-database") },
      text(metadata, tableHeader(signal))
    )
    const outcome = yield* exports.ingest(target, signal, "protobuf", bytes)
    return responseBinary(signal, outcome)
  })
})
