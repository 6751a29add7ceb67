import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication, OrganizationRole } from "../Identity.js"
import { UserId } from "../Ids.js"
import { urlSafeName } from "./Names.js"
import { Deleted, OrganizationRef } from "./Scope.js"

export class OrganizationMembership extends Schema.Class<OrganizationMembership>(
  "OrganizationMembership"
)({ name: Schema.String, role: OrganizationRole }) {}

export class Member extends Schema.Class<Member>("Member")({
  user_id: UserId,
  email: Schema.String,
  role: OrganizationRole
}) {}

export class AddMemberRequest extends Schema.Class<AddMemberRequest>("AddMemberRequest")({
  // No control characters: the control plane cannot store a NUL.
  email: Schema.String.pipe(
    Schema.pattern(/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u, { message: () => "not an email" })
  ),
  role: OrganizationRole,
  /**
   * Creates the user with this password when no user has that email yet; never used for
   * an account that exists.
   */
  password: Schema.optional(Schema.Redacted(Schema.String.pipe(Schema.minLength(12))))
}) {}

/**
 * What adding a member did: `member` (a new account, a member now, `user_id` given) or
 * `invited` (the email has an account: it is invited, and joins when its user accepts;
 * nothing about the account is told, its id included).
 */
export class AddedMember extends Schema.Class<AddedMember>("AddedMember")({
  user_id: Schema.optional(UserId),
  email: Schema.String,
  role: OrganizationRole,
  status: Schema.Literal("member", "invited")
}) {}

/** A pending invitation, as the organization's admins see it. */
export class SentInvitation extends Schema.Class<SentInvitation>("SentInvitation")({
  id: Schema.UUID,
  email: Schema.String,
  role: OrganizationRole,
  invited_at: Schema.String
}) {}

/** A pending invitation, as the invited user sees it. */
export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: Schema.UUID,
  organization: OrganizationRef,
  role: OrganizationRole,
  /** The inviting admin's email (`null` once that user is gone). */
  invited_by: Schema.NullOr(Schema.String),
  invited_at: Schema.String
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
const invitationId = HttpApiSchema.param("invitation_id", Schema.UUID)

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
      .addSuccess(Schema.Struct({ member: AddedMember }), { status: 201 })
      .addError(ErrorWire.NotFound)
      .addError(ErrorWire.Conflict)
      .annotate(
        OpenApi.Description,
        "Adds a member (admins). An email without an account gets one, with `password` when given (else it signs in by OAuth), and is a member at once: `status: member` with its `user_id`. An email that has an account is invited instead: `status: invited`, no `user_id`, `password` unused; its user sees the invitation at GET /v1/invitations and joins by accepting it. Adding again changes a pending invitation's role; a member already is a 409."
      )
  )
  .add(
    HttpApiEndpoint.get("invitations")`/v1/organizations/${org}/invitations`
      .addSuccess(Schema.Struct({ invitations: Schema.Array(SentInvitation) }))
      .addError(ErrorWire.NotFound)
      .annotate(OpenApi.Description, "The organization's pending invitations (admins).")
  )
  .add(
    HttpApiEndpoint.del("cancelInvitation")`/v1/organizations/${org}/invitations/${invitationId}`
      .addSuccess(Deleted)
      .addError(ErrorWire.NotFound)
      .annotate(OpenApi.Description, "Withdraws a pending invitation (admins).")
  )
  .add(
    HttpApiEndpoint.get("myInvitations", "/v1/invitations")
      .addSuccess(Schema.Struct({ invitations: Schema.Array(Invitation) }))
      .annotate(
        OpenApi.Description,
        "The caller's pending invitations to organizations: accept or decline each."
      )
  )
  .add(
    HttpApiEndpoint.post("acceptInvitation")`/v1/invitations/${invitationId}/accept`
      .addSuccess(Schema.Struct({ organization: OrganizationMembership }))
      .addError(ErrorWire.NotFound)
      .annotate(
        OpenApi.Description,
        "Accepts one of the caller's invitations: the caller is a member of its organization, with its role, from now on."
      )
  )
  .add(
    HttpApiEndpoint.del("declineInvitation")`/v1/invitations/${invitationId}`
      .addSuccess(Deleted)
      .addError(ErrorWire.NotFound)
      .annotate(OpenApi.Description, "Declines one of the caller's invitations.")
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
