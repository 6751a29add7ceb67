/**
 * The gRPC status of each error the native OTLP path can end in. The message carries the
 * hint too: gRPC clients show `details` and nothing else.
 */
import { status } from "@grpc/grpc-js"
import type { StatusObject } from "@grpc/grpc-js"
import type { ApiError } from "../../../domain/Errors.js"

type ServerStatusResponse = Partial<StatusObject>

const codes: Record<ApiError["_tag"], status> = {
  BadRequest: status.INVALID_ARGUMENT,
  Unauthorized: status.UNAUTHENTICATED,
  Forbidden: status.PERMISSION_DENIED,
  // A missing app, database or cluster: the client cannot succeed until someone creates it.
  NotFound: status.NOT_FOUND,
  Conflict: status.FAILED_PRECONDITION,
  PayloadTooLarge: status.RESOURCE_EXHAUSTED,
  UnsupportedMediaType: status.INVALID_ARGUMENT,
  TooManyRequests: status.RESOURCE_EXHAUSTED,
  Internal: status.INTERNAL,
  // OTLP exporters retry UNAVAILABLE, which is what a paused cluster needs.
  Unavailable: status.UNAVAILABLE,
  DatabaseNotFound: status.NOT_FOUND,
  InvalidDatabaseName: status.INVALID_ARGUMENT,
  InsertTokenReused: status.FAILED_PRECONDITION,
  MalformedRecords: status.INVALID_ARGUMENT,
  QueryRefused: status.INVALID_ARGUMENT,
  SplRefused: status.INVALID_ARGUMENT,
  ClusterNotFound: status.NOT_FOUND,
  ClusterTransitionConflict: status.FAILED_PRECONDITION,
  DuplicateClusterName: status.ALREADY_EXISTS,
  InvalidClusterSize: status.INVALID_ARGUMENT,
  // The client cannot succeed until an admin installs the app.
  AppNotInstalled: status.NOT_FOUND,
  // The device login is HTTP only; listed so that every error has a status.
  DeviceLoginPending: status.FAILED_PRECONDITION,
  DeviceLoginEnded: status.PERMISSION_DENIED,
  SavedSearchNotFound: status.NOT_FOUND,
  DuplicateSavedSearchName: status.ALREADY_EXISTS
}

export const grpcError = (error: ApiError): ServerStatusResponse => ({
  code: codes[error._tag],
  details: error.hint === "" ? error.message : `${error.message} ${error.hint}`
})

export const internalError = (traceId: string): ServerStatusResponse => ({
  code: status.INTERNAL,
  details: `Internal error (trace id ${traceId}).`
})
