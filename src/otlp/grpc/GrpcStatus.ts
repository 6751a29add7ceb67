/**
 * The gRPC answer of an error the native OTLP path ends in, with the status its error
 * declares (`domain/Errors.ts`). The message carries the hint too: gRPC clients show
 * `details` and nothing else.
 */
import { status } from "@grpc/grpc-js"
import type { StatusObject } from "@grpc/grpc-js"
import type { ApiError } from "../../../domain/Errors.js"
import { errorGrpcCode } from "../../../domain/Errors.js"

type ServerStatusResponse = Partial<StatusObject>

export const grpcError = (error: ApiError): ServerStatusResponse => ({
  code: errorGrpcCode[error._tag],
  details: error.hint === "" ? error.message : `${error.message} ${error.hint}`
})

export const internalError = (traceId: string): ServerStatusResponse => ({
  code: status.INTERNAL,
  details: `Internal error (trace id ${traceId}).`
})
