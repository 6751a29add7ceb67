import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication, OrganizationRole } from "../Identity.js"
import { UserId } from "../Ids.js"
import { urlSafeName } from "./Names.js"
import { Deleted } from "./Scope.js"

export class OrganizationMembership extends Schema.Class<OrganizationMembership>(
  "OrganizationMembership"
)({ name: Schema.String, role: OrganizationRole }) {}

export class Member extends Schema.Class<Member>("Member")({
  user_id: UserId,
  email: Schema.String,
  role: OrganizationRole
}) {}

export class AddMemberRequest extends Schema.Class<AddMemberRequest>("AddMemberRequest")({
  email: Schema.String.pipe(Schema.pattern(/^[^\s@]+@[^\s@]+$/, { message: () => "not an email" })),
  role: OrganizationRole,
  /** Creates the user with this password when no user has that email yet. */
  password: Schema.optional(Schema.Redacted(Schema.String.pipe(Schema.minLength(12))))
}) {}

export const OrganizationName = urlSafeName("an organization name")

export class OrganizationNameRequest extends Schema.Class<OrganizationNameRequest>(
  "OrganizationNameRequest"
)({ organization_name: OrganizationName }) {}

export class OrganizationCreated extends Schema.Class<OrganizationCreated>("OrganizationCreated")({
  name: Schema.String
}) {}

const org = HttpApiSchema.param("org", Schema.String)
const userId = HttpApiSchema.param("user_id", UserId)

/** Organizations of the calling user, and their members (org admins manage them). */
export class OrganizationsApi extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.get("list", "/v1/organizations").addSuccess(
      Schema.Struct({ organizations: Schema.Array(OrganizationMembership) })
    )
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/organizations")
      .setPayload(OrganizationNameRequest)
      .addSuccess(OrganizationCreated, { status: 201 })
      .addError(ErrorWire.Conflict)
      .annotate(
        OpenApi.Description,
        "Creates an organization with the caller as its admin and a cluster `default` holding database `default`."
      )
  )
  .add(
    HttpApiEndpoint.patch("rename")`/v1/organizations/${org}`
      .setPayload(OrganizationNameRequest)
      .addSuccess(OrganizationCreated)
      .addError(ErrorWire.NotFound)
      .addError(ErrorWire.Conflict)
      .annotate(OpenApi.Description, "Renames the organization (admins).")
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/organizations/${org}`
      .addSuccess(Deleted)
      .addError(ErrorWire.NotFound)
      .annotate(
        OpenApi.Description,
        "Deletes the organization (admins): its clusters are deleted as DELETE /v1/clusters/{id} does and its keys revoked."
      )
  )
  .add(
    HttpApiEndpoint.get("members")`/v1/organizations/${org}/members`
      .addSuccess(Schema.Struct({ members: Schema.Array(Member) }))
      .addError(ErrorWire.NotFound)
  )
  .add(
    HttpApiEndpoint.post("addMember")`/v1/organizations/${org}/members`
      .setPayload(AddMemberRequest)
      .addSuccess(Schema.Struct({ member: Member }), { status: 201 })
      .addError(ErrorWire.NotFound)
      .addError(ErrorWire.Conflict)
  )
  .add(
    HttpApiEndpoint.patch("updateMember")`/v1/organizations/${org}/members/${userId}`
      .setPayload(Schema.Struct({ role: OrganizationRole }))
      .addSuccess(Schema.Struct({ member: Member }))
      .addError(ErrorWire.NotFound)
      .addError(ErrorWire.Conflict)
  )
  .add(
    HttpApiEndpoint.del("removeMember")`/v1/organizations/${org}/members/${userId}`
      .addSuccess(Deleted)
      .addError(ErrorWire.NotFound)
      // The last admin cannot leave.
      .addError(ErrorWire.Conflict)
  )
  // Organizations are for users; an API key is refused.
  .addError(ErrorWire.Forbidden)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Organizations and their members") {}
