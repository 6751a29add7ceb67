import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { DatabaseName } from "../Ids.js"
import { ByoS3, S3Storage } from "./ClusterModels.js"
import { ClusterRef, Deleted, OrganizationRef, ScopeParams } from "./Scope.js"

export class CreateDatabaseRequest extends Schema.Class<CreateDatabaseRequest>(
  "CreateDatabaseRequest"
)({
  name: DatabaseName,
  /** The database's customer-owned storage (`rtree database create --s3-*`); shown, never the role. */
  s3_storage: Schema.optional(ByoS3)
}) {}

/** A database as listed and created: its name, and its customer-owned storage or null. */
export const DatabaseInfo = Schema.Struct({
  name: Schema.String,
  s3_storage: Schema.NullOr(S3Storage)
})
export type DatabaseInfo = typeof DatabaseInfo.Type

const database = HttpApiSchema.param("database", DatabaseName)

/**
 * Databases of the caller's cluster. These endpoints act on the cluster,
 * so they take `organization` and `cluster` but no database selector.
 */
export class DatabasesApi extends HttpApiGroup.make("databases")
  .add(
    HttpApiEndpoint.get("list", "/v1/databases")
      .setUrlParams(ScopeParams)
      .addSuccess(
        Schema.Struct({
          databases: Schema.Array(DatabaseInfo),
          organization: OrganizationRef,
          cluster: ClusterRef
        })
      )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/databases")
      .setUrlParams(ScopeParams)
      .setPayload(CreateDatabaseRequest)
      .addSuccess(
        // `name` as well as `database`: clients of both shapes exist.
        Schema.Struct({
          name: DatabaseName,
          database: DatabaseInfo,
          organization: OrganizationRef
        }),
        { status: 201 }
      )
      .addError(ErrorWire.Conflict)
      .addError(ErrorWire.ClusterPaused)
      .addError(ErrorWire.Unavailable)
      .annotate(OpenApi.Description, "Admin only; a duplicate name is a 409.")
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/databases/${database}`
      .setUrlParams(ScopeParams)
      .addSuccess(Deleted)
      .addError(ErrorWire.Conflict)
      .addError(ErrorWire.ClusterPaused)
      .addError(ErrorWire.Unavailable)
      .annotate(
        OpenApi.Description,
        "Admin only. Deletes the database and its data; `default` cannot be deleted (409). " +
          "Keys whose default is this database are not revoked."
      )
  )
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Databases of a cluster") {}
