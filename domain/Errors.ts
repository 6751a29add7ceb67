/**
 * The errors every transport speaks. Each is a `Schema.TaggedError` for code that
 * handles it, and its wire form is exactly `{error, message, hint}`:
 * the `_tag` never leaves the process. Endpoints declare the wire schemas (`ErrorWire`)
 * of the errors they can return.
 */
import { HttpApiSchema } from "@effect/platform"
import { ParseResult, Schema } from "effect"

/** gRPC status codes (the protocol's numbers), for the errors the gRPC server answers. */
export const GrpcCode = {
  INVALID_ARGUMENT: 3,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  UNAUTHENTICATED: 16
} as const

interface WireForm {
  /** The HTTP status. */
  readonly status: number
  /** The stable `error` code of the body (a conflict or an ended device login may carry its own). */
  readonly code: string
  /** The gRPC status of the native OTLP path. */
  readonly grpc: (typeof GrpcCode)[keyof typeof GrpcCode]
}

/**
 * Each error's wire form, declared once: its class takes its status from here, and the
 * HTTP and gRPC edges their tables. Domain errors answer with the code of their status
 * unless clients act on a code of their own, so clients that read `error` see what they
 * always saw.
 */
export const wireForm = {
  BadRequest: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  Unauthorized: { status: 401, code: "unauthorized", grpc: GrpcCode.UNAUTHENTICATED },
  Forbidden: { status: 403, code: "forbidden", grpc: GrpcCode.PERMISSION_DENIED },
  // A missing app, database or cluster: the client cannot succeed until someone creates it.
  NotFound: { status: 404, code: "not_found", grpc: GrpcCode.NOT_FOUND },
  Conflict: { status: 409, code: "conflict", grpc: GrpcCode.FAILED_PRECONDITION },
  PayloadTooLarge: { status: 413, code: "payload_too_large", grpc: GrpcCode.RESOURCE_EXHAUSTED },
  UnsupportedMediaType: {
    status: 415,
    code: "unsupported_media_type",
    grpc: GrpcCode.INVALID_ARGUMENT
  },
  TooManyRequests: { status: 429, code: "too_many_requests", grpc: GrpcCode.RESOURCE_EXHAUSTED },
  Internal: { status: 500, code: "internal", grpc: GrpcCode.INTERNAL },
  // OTLP exporters retry UNAVAILABLE, which is what a paused cluster needs.
  Unavailable: { status: 503, code: "unavailable", grpc: GrpcCode.UNAVAILABLE },
  DatabaseNotFound: { status: 404, code: "not_found", grpc: GrpcCode.NOT_FOUND },
  InvalidDatabaseName: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  InsertTokenReused: {
    status: 409,
    code: "insert_token_reused",
    grpc: GrpcCode.FAILED_PRECONDITION
  },
  MalformedRecords: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  QueryRefused: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  SplRefused: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  ClusterNotFound: { status: 404, code: "not_found", grpc: GrpcCode.NOT_FOUND },
  ClusterTransitionConflict: { status: 409, code: "conflict", grpc: GrpcCode.FAILED_PRECONDITION },
  ClusterPaused: { status: 409, code: "cluster_paused", grpc: GrpcCode.FAILED_PRECONDITION },
  DuplicateClusterName: { status: 409, code: "duplicate_name", grpc: GrpcCode.ALREADY_EXISTS },
  InvalidClusterSize: { status: 400, code: "bad_request", grpc: GrpcCode.INVALID_ARGUMENT },
  // The client cannot succeed until an admin installs the app.
  AppNotInstalled: { status: 404, code: "not_found", grpc: GrpcCode.NOT_FOUND },
  // The device login is HTTP only; a gRPC status so that every error has one.
  DeviceLoginPending: {
    status: 428,
    code: "authorization_pending",
    grpc: GrpcCode.FAILED_PRECONDITION
  },
  DeviceLoginEnded: { status: 400, code: "expired_token", grpc: GrpcCode.PERMISSION_DENIED },
  SavedSearchNotFound: { status: 404, code: "not_found", grpc: GrpcCode.NOT_FOUND },
  DuplicateSavedSearchName: { status: 409, code: "duplicate_name", grpc: GrpcCode.ALREADY_EXISTS }
} as const

const fields = {
  message: Schema.String,
  hint: Schema.optionalWith(Schema.String, { default: () => "" })
}

/** 400: validation failed, or the engine refused a query (message cleaned). */
export class BadRequest extends Schema.TaggedError<BadRequest>()(
  "BadRequest",
  fields,
  HttpApiSchema.annotations({ status: wireForm.BadRequest.status })
) {}
/** 401: missing, invalid, expired or revoked credential. */
export class Unauthorized extends Schema.TaggedError<Unauthorized>()(
  "Unauthorized",
  fields,
  HttpApiSchema.annotations({ status: wireForm.Unauthorized.status })
) {}
/** 403: valid credential, not allowed. */
export class Forbidden extends Schema.TaggedError<Forbidden>()(
  "Forbidden",
  fields,
  HttpApiSchema.annotations({ status: wireForm.Forbidden.status })
) {}
/** 404: the addressed thing does not exist (in the caller's scope). */
export class NotFound extends Schema.TaggedError<NotFound>()(
  "NotFound",
  fields,
  HttpApiSchema.annotations({ status: wireForm.NotFound.status })
) {}
/** 409: lifecycle conflict, duplicate name, protected resource, a query id in use. */
export class Conflict extends Schema.TaggedError<Conflict>()(
  "Conflict",
  {
    ...fields,
    /** A more specific stable code than `conflict`, for clients that act on one. */
    code: Schema.optionalWith(Schema.String, { default: () => "conflict" })
  },
  HttpApiSchema.annotations({ status: wireForm.Conflict.status })
) {}
/** 413: the body is larger than the endpoint accepts. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()(
  "PayloadTooLarge",
  fields,
  HttpApiSchema.annotations({ status: wireForm.PayloadTooLarge.status })
) {}
/** 415: the content type or encoding is not one the endpoint reads. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()(
  "UnsupportedMediaType",
  fields,
  HttpApiSchema.annotations({ status: wireForm.UnsupportedMediaType.status })
) {}
/** 429: slow down; `retryAfterSeconds` becomes the `retry-after` header. */
export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()(
  "TooManyRequests",
  {
    ...fields,
    retryAfterSeconds: Schema.optionalWith(Schema.Int, { default: () => 1 })
  },
  HttpApiSchema.annotations({ status: wireForm.TooManyRequests.status })
) {}
/** 500: something broke on our side; the message carries only a trace id. */
export class Internal extends Schema.TaggedError<Internal>()(
  "Internal",
  fields,
  HttpApiSchema.annotations({ status: wireForm.Internal.status })
) {}
/** 503: a dependency (engine, control plane) cannot serve right now. */
export class Unavailable extends Schema.TaggedError<Unavailable>()(
  "Unavailable",
  fields,
  HttpApiSchema.annotations({ status: wireForm.Unavailable.status })
) {}

/**
 * Errors named after what happened, for capabilities in `domain/`. Each carries its HTTP
 * status as an annotation, and its wire code (`errorCode`) is the status's, so clients
 * that read `error` see what they always saw.
 */
/** The asked-for database does not exist in the cluster. */
export class DatabaseNotFound extends Schema.TaggedError<DatabaseNotFound>()(
  "DatabaseNotFound",
  fields,
  HttpApiSchema.annotations({ status: wireForm.DatabaseNotFound.status })
) {}
/** The asked-for database name is not a valid identifier. */
export class InvalidDatabaseName extends Schema.TaggedError<InvalidDatabaseName>()(
  "InvalidDatabaseName",
  fields,
  HttpApiSchema.annotations({ status: wireForm.InvalidDatabaseName.status })
) {}
/** An insert token was used before with a different body. */
export class InsertTokenReused extends Schema.TaggedError<InsertTokenReused>()(
  "InsertTokenReused",
  fields,
  HttpApiSchema.annotations({ status: wireForm.InsertTokenReused.status })
) {}
/** A body's records could not be read; nothing of it was inserted. */
export class MalformedRecords extends Schema.TaggedError<MalformedRecords>()(
  "MalformedRecords",
  fields,
  HttpApiSchema.annotations({ status: wireForm.MalformedRecords.status })
) {}
/** A query was refused before or by the engine (size, guard, syntax, limits). */
export class QueryRefused extends Schema.TaggedError<QueryRefused>()(
  "QueryRefused",
  fields,
  HttpApiSchema.annotations({ status: wireForm.QueryRefused.status })
) {}
/**
 * An SPL search was refused before it ran: a syntax error, a command or function outside
 * the subset, or a search whose SQL would be too large. `command` and `position` (a
 * 0-based character offset in the SPL text) say where; the message says them too.
 */
export class SplRefused extends Schema.TaggedError<SplRefused>()(
  "SplRefused",
  {
    ...fields,
    command: Schema.optionalWith(Schema.String, { default: () => "search" }),
    position: Schema.optionalWith(Schema.Int, { default: () => 0 })
  },
  HttpApiSchema.annotations({ status: wireForm.SplRefused.status })
) {}

/** The asked-for cluster does not exist in the caller's organization. */
export class ClusterNotFound extends Schema.TaggedError<ClusterNotFound>()(
  "ClusterNotFound",
  fields,
  HttpApiSchema.annotations({ status: wireForm.ClusterNotFound.status })
) {}
/** The cluster's phase does not allow the transition now. */
export class ClusterTransitionConflict extends Schema.TaggedError<ClusterTransitionConflict>()(
  "ClusterTransitionConflict",
  fields,
  HttpApiSchema.annotations({ status: wireForm.ClusterTransitionConflict.status })
) {}
/**
 * An admin paused the cluster: its engine is stopped until someone resumes it, and data
 * requests answer 409 `cluster_paused`. (A cluster paused for being idle is woken by the
 * next data request instead.)
 */
export class ClusterPaused extends Schema.TaggedError<ClusterPaused>()(
  "ClusterPaused",
  fields,
  HttpApiSchema.annotations({ status: wireForm.ClusterPaused.status })
) {}
/** The organization already has a cluster of that name. */
export class DuplicateClusterName extends Schema.TaggedError<DuplicateClusterName>()(
  "DuplicateClusterName",
  fields,
  HttpApiSchema.annotations({ status: wireForm.DuplicateClusterName.status })
) {}
/** A requested size, replica count or bound is not in the size catalog. */
export class InvalidClusterSize extends Schema.TaggedError<InvalidClusterSize>()(
  "InvalidClusterSize",
  fields,
  HttpApiSchema.annotations({ status: wireForm.InvalidClusterSize.status })
) {}

/** A cluster app's endpoint was called while the app is not installed on the cluster. */
export class AppNotInstalled extends Schema.TaggedError<AppNotInstalled>()(
  "AppNotInstalled",
  fields,
  HttpApiSchema.annotations({ status: wireForm.AppNotInstalled.status })
) {}

/** 428: a command-line login waits for a signed-in user to approve its code. */
export class DeviceLoginPending extends Schema.TaggedError<DeviceLoginPending>()(
  "DeviceLoginPending",
  fields,
  HttpApiSchema.annotations({ status: wireForm.DeviceLoginPending.status })
) {}
/**
 * A command-line login that ended without a token: its code expired (or is unknown or
 * was used), or the user denied it. `reason` is the wire code clients of the device
 * flow (RFC 8628) act on.
 */
export class DeviceLoginEnded extends Schema.TaggedError<DeviceLoginEnded>()(
  "DeviceLoginEnded",
  { ...fields, reason: Schema.Literal("expired_token", "access_denied") },
  HttpApiSchema.annotations({ status: wireForm.DeviceLoginEnded.status })
) {}
/** The saved search does not exist, or is private to someone else (never confirmed). */
export class SavedSearchNotFound extends Schema.TaggedError<SavedSearchNotFound>()(
  "SavedSearchNotFound",
  fields,
  HttpApiSchema.annotations({ status: wireForm.SavedSearchNotFound.status })
) {}
/** The creator already has a saved search of that name in the cluster. */
export class DuplicateSavedSearchName extends Schema.TaggedError<DuplicateSavedSearchName>()(
  "DuplicateSavedSearchName",
  fields,
  HttpApiSchema.annotations({ status: wireForm.DuplicateSavedSearchName.status })
) {}

export type DomainError =
  | DatabaseNotFound
  | InvalidDatabaseName
  | InsertTokenReused
  | MalformedRecords
  | QueryRefused
  | SplRefused
  | ClusterNotFound
  | ClusterTransitionConflict
  | ClusterPaused
  | DuplicateClusterName
  | InvalidClusterSize
  | AppNotInstalled
  | DeviceLoginPending
  | DeviceLoginEnded
  | SavedSearchNotFound
  | DuplicateSavedSearchName

/** Every error a transport may return. */
export type ApiError =
  | DomainError
  | BadRequest
  | Unauthorized
  | Forbidden
  | NotFound
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | TooManyRequests
  | Internal
  | Unavailable

/** The body every error response carries. */
export const ErrorBody = Schema.Struct({
  error: Schema.String.annotations({ description: "Stable snake_case code" }),
  message: Schema.String.annotations({ description: "For people" }),
  hint: Schema.String.annotations({ description: "What to do next; may be empty" })
}).annotations({ identifier: "Error" })
export type ErrorBody = typeof ErrorBody.Type

// Every error has its wire form, and every wire form names an error.
wireForm satisfies Record<ApiError["_tag"], WireForm>
const namesOnlyErrors: [Exclude<keyof typeof wireForm, ApiError["_tag"]>] extends [never]
  ? true
  : false = true
void namesOnlyErrors

type Derived<K extends keyof WireForm> = {
  readonly [Tag in keyof typeof wireForm]: (typeof wireForm)[Tag][K]
}
const column = <K extends keyof WireForm>(key: K): Derived<K> =>
  Object.fromEntries(Object.entries(wireForm).map(([tag, form]) => [tag, form[key]])) as Derived<K>

/** The HTTP status of each error. */
export const errorStatus = column("status")

/** The stable wire code of each error (a conflict may carry its own). */
export const errorCode = column("code")

/** The gRPC status of each error. */
export const errorGrpcCode = column("grpc")

/** The wire body of an error: its stable code, or a conflict's own. */
export const errorBody = (error: ApiError): ErrorBody => ({
  error:
    error._tag === "Conflict"
      ? error.code
      : error._tag === "DeviceLoginEnded"
        ? error.reason
        : errorCode[error._tag],
  message: error.message,
  hint: error.hint
})

const wire = <A extends ApiError, I, R>(
  self: Schema.Schema<A, I, R>,
  make: (body: ErrorBody) => A
) =>
  Schema.transform(ErrorBody, Schema.typeSchema(self), {
    strict: true,
    decode: make,
    encode: errorBody
  }).annotations(HttpApiSchema.annotations({ status: errorStatus[make(sample)._tag] }))

const sample: ErrorBody = { error: "", message: "", hint: "" }
const text = (body: ErrorBody) => ({ message: body.message, hint: body.hint })

/**
 * Wire schemas, one per error. A client decodes an error body by its status into the first
 * error its endpoint declares for that status (the codes of a status's errors may be
 * the same), so a group or endpoint declares a status-named error before the domain
 * errors that share its status, as clients have always received.
 */
export const ErrorWire = {
  BadRequest: wire(BadRequest, (b) => new BadRequest(text(b))),
  Unauthorized: wire(Unauthorized, (b) => new Unauthorized(text(b))),
  Forbidden: wire(Forbidden, (b) => new Forbidden(text(b))),
  NotFound: wire(NotFound, (b) => new NotFound(text(b))),
  Conflict: wire(Conflict, (b) => new Conflict({ ...text(b), code: b.error || "conflict" })),
  PayloadTooLarge: wire(PayloadTooLarge, (b) => new PayloadTooLarge(text(b))),
  UnsupportedMediaType: wire(UnsupportedMediaType, (b) => new UnsupportedMediaType(text(b))),
  TooManyRequests: wire(TooManyRequests, (b) => new TooManyRequests(text(b))),
  Internal: wire(Internal, (b) => new Internal(text(b))),
  Unavailable: wire(Unavailable, (b) => new Unavailable(text(b))),
  DatabaseNotFound: wire(DatabaseNotFound, (b) => new DatabaseNotFound(text(b))),
  InvalidDatabaseName: wire(InvalidDatabaseName, (b) => new InvalidDatabaseName(text(b))),
  InsertTokenReused: wire(InsertTokenReused, (b) => new InsertTokenReused(text(b))),
  MalformedRecords: wire(MalformedRecords, (b) => new MalformedRecords(text(b))),
  QueryRefused: wire(QueryRefused, (b) => new QueryRefused(text(b))),
  SplRefused: wire(SplRefused, (b) => new SplRefused(text(b))),
  ClusterNotFound: wire(ClusterNotFound, (b) => new ClusterNotFound(text(b))),
  ClusterTransitionConflict: wire(
    ClusterTransitionConflict,
    (b) => new ClusterTransitionConflict(text(b))
  ),
  ClusterPaused: wire(ClusterPaused, (b) => new ClusterPaused(text(b))),
  DuplicateClusterName: wire(DuplicateClusterName, (b) => new DuplicateClusterName(text(b))),
  InvalidClusterSize: wire(InvalidClusterSize, (b) => new InvalidClusterSize(text(b))),
  AppNotInstalled: wire(AppNotInstalled, (b) => new AppNotInstalled(text(b))),
  DeviceLoginPending: wire(DeviceLoginPending, (b) => new DeviceLoginPending(text(b))),
  // Shares its status with BadRequest: decodes only its own codes, so that a client tries
  // it first and falls through to BadRequest for the others.
  DeviceLoginEnded: Schema.transformOrFail(ErrorBody, Schema.typeSchema(DeviceLoginEnded), {
    strict: true,
    decode: (b, _, ast) =>
      b.error === "expired_token" || b.error === "access_denied"
        ? ParseResult.succeed(new DeviceLoginEnded({ ...text(b), reason: b.error }))
        : ParseResult.fail(new ParseResult.Type(ast, b, "not the end of a device login")),
    encode: (e) => ParseResult.succeed(errorBody(e))
  }).annotations(HttpApiSchema.annotations({ status: errorStatus.DeviceLoginEnded })),
  SavedSearchNotFound: wire(SavedSearchNotFound, (b) => new SavedSearchNotFound(text(b))),
  DuplicateSavedSearchName: wire(
    DuplicateSavedSearchName,
    (b) => new DuplicateSavedSearchName(text(b))
  )
}
