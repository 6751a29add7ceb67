import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication, Permission } from "../Identity.js"
import { ApiKeyId } from "../Ids.js"
import { ClusterRef, DatabaseRef, DataScopeParams, Deleted, OrganizationRef } from "./Scope.js"

/** A key as listed: never the token, only its masked form such as `rt_***abcd`. */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: ApiKeyId,
  name: Schema.String,
  permission: Permission,
  /** The masked form, the same as `hint` (clients read either). */
  token: Schema.String,
  default_database: Schema.String,
  hint: Schema.String,
  created_at: Schema.String,
  last_used_at: Schema.NullOr(Schema.String)
}) {}

/**
 * A key just created: the one response that carries its full token (in `token`), with
 * where it acts. Answered both at the top level and nested under `key`.
 */
export class CreatedApiKey extends Schema.Class<CreatedApiKey>("CreatedApiKey")({
  ...ApiKey.fields,
  database: DatabaseRef,
  organization: OrganizationRef,
  cluster: ClusterRef
}) {}

export class CreateKeyRequest extends Schema.Class<CreateKeyRequest>("CreateKeyRequest")({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)),
  permission: Permission
}) {}

const idOrToken = HttpApiSchema.param("id_or_token", Schema.String)

/** Cluster API keys; admin key or org-admin user only. */
export class KeysApi extends HttpApiGroup.make("keys")
  .add(
    HttpApiEndpoint.get("list", "/v1/keys")
      .setUrlParams(DataScopeParams)
      .addSuccess(
        Schema.Struct({
          keys: Schema.Array(ApiKey),
          /** The selected database; `project` is its alias. */
          database: DatabaseRef,
          project: DatabaseRef,
          organization: OrganizationRef,
          cluster: ClusterRef
        })
      )
      .addError(ErrorWire.DatabaseNotFound)
      .addError(ErrorWire.InvalidDatabaseName)
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/keys")
      .setUrlParams(DataScopeParams)
      .setPayload(CreateKeyRequest)
      .addSuccess(Schema.Struct({ ...CreatedApiKey.fields, key: CreatedApiKey }), { status: 201 })
      // The new key's default database is the selected one.
      .addError(ErrorWire.DatabaseNotFound)
      .addError(ErrorWire.InvalidDatabaseName)
  )
  .add(
    HttpApiEndpoint.del("revoke")`/v1/keys/${idOrToken}`
      .setUrlParams(DataScopeParams)
      .addSuccess(Deleted)
  )
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Cluster API keys") {}
