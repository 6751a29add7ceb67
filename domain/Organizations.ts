/**
 * Organizations and who belongs to them. A user makes organizations (becoming their admin,
 * each starting with a cluster `default`); an organization's admins rename or delete it
 * and manage its members. Adding an email that has no account yet makes it a member at
 * once; an email that has an account is invited, and its user joins by accepting, so no
 * organization makes someone its member unasked, nor sets or learns anything of an account
 * it did not create. An organization always keeps at least one admin.
 *
 * The methods that take an `OrganizationScope` trust it: `Authorization.organizationScope`
 * made it for a caller with the role the action needs.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type {
  AddedMember,
  AddMemberRequest,
  Invitation,
  Member,
  OrganizationMembership,
  SentInvitation
} from "./api/OrganizationsApi.js"
import type { OrganizationScope } from "./Authorization.js"
import type { Conflict, Forbidden, NotFound } from "./Errors.js"
import type { OrganizationRole } from "./Identity.js"
import type { UserId } from "./Ids.js"

export class Organizations extends Context.Tag("sluice/Organizations")<
  Organizations,
  {
    /** The organizations `user` belongs to, by name, with the user's role in each. */
    readonly ofUser: (user: UserId) => Effect.Effect<ReadonlyArray<OrganizationMembership>>
    /**
     * Makes organization `name` with `admin` as its admin, and starts its cluster `default`
     * in the background. `Conflict`: the name is taken; `Forbidden`: `admin` has made as
     * many organizations as one user may.
     */
    readonly create: (name: string, admin: UserId) => Effect.Effect<void, Conflict | Forbidden>
    /** `Conflict`: another organization has the name. */
    readonly rename: (scope: OrganizationScope, name: string) => Effect.Effect<void, Conflict>
    /** Deletes the organization's clusters (engines, data, keys), then the organization. */
    readonly remove: (scope: OrganizationScope) => Effect.Effect<void>
    /** The members, by email. */
    readonly members: (scope: OrganizationScope) => Effect.Effect<ReadonlyArray<Member>>
    /**
     * Adds `request.email` with `request.role`: a new account (with `request.password`, if
     * given) that is a member at once, or an invitation from `scope`'s user to the
     * account the email has. `Conflict`: the account is a member already.
     */
    readonly addMember: (
      scope: OrganizationScope,
      request: AddMemberRequest
    ) => Effect.Effect<AddedMember, Conflict>
    /**
     * `NotFound`: `user` is not a member; `Conflict`: the organization would be left
     * without an admin.
     */
    readonly setRole: (
      scope: OrganizationScope,
      user: UserId,
      role: OrganizationRole
    ) => Effect.Effect<Member, NotFound | Conflict>
    /** As `setRole`: a member is removed only if an admin remains. */
    readonly removeMember: (
      scope: OrganizationScope,
      user: UserId
    ) => Effect.Effect<void, NotFound | Conflict>
    /** The organization's pending invitations, by email. */
    readonly invitations: (scope: OrganizationScope) => Effect.Effect<ReadonlyArray<SentInvitation>>
    /** `NotFound`: the organization has no such pending invitation. */
    readonly cancelInvitation: (
      scope: OrganizationScope,
      id: string
    ) => Effect.Effect<void, NotFound>
    /** `user`'s pending invitations, oldest first. */
    readonly invitationsOf: (user: UserId) => Effect.Effect<ReadonlyArray<Invitation>>
    /** Makes `user` a member with the invitation's role. `NotFound`: not an invitation of theirs. */
    readonly accept: (id: string, user: UserId) => Effect.Effect<OrganizationMembership, NotFound>
    /** `NotFound`: not an invitation of theirs. */
    readonly decline: (id: string, user: UserId) => Effect.Effect<void, NotFound>
  }
>() {}
