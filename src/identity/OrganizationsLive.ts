/**
 * `Organizations` over the control plane: memberships and invitations in their
 * repositories, an organization's making and deleting in `OrganizationLifecycle`.
 */
import { DateTime, Effect, Layer, Option } from "effect"
import {
  AddedMember,
  Invitation,
  Member,
  OrganizationMembership,
  SentInvitation
} from "../../domain/api/OrganizationsApi.js"
import type { OrganizationScope } from "../../domain/Authorization.js"
import { Conflict, NotFound } from "../../domain/Errors.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import type { UserId } from "../../domain/Ids.js"
import { Organizations } from "../../domain/Organizations.js"
import { InvitationsRepo } from "./InvitationsRepo.js"
import { OrganizationLifecycle } from "./OrganizationLifecycle.js"
import type { MembershipRow } from "./OrganizationsRepo.js"
import { OrganizationsRepo } from "./OrganizationsRepo.js"
import { Passwords } from "./Passwords.js"
import { UsersRepo } from "./UsersRepo.js"

const toMember = (m: MembershipRow) =>
  new Member({ user_id: m.user_id, email: m.email, role: m.role })

const iso = (date: Date) => DateTime.formatIso(DateTime.unsafeFromDate(date))

const noInvitation = new NotFound({
  message: "There is no such pending invitation.",
  hint: "GET /v1/invitations lists yours; an organization's admins see its own at GET /v1/organizations/{org}/invitations."
})

/** An organization always keeps at least one admin: `user` may leave it or change role only if another admin stays. */
const keepsAnAdmin = (
  all: ReadonlyArray<MembershipRow>,
  user: UserId,
  role: OrganizationRole | null
) =>
  all.some((m) => m.role === "admin" && m.user_id !== user) || role === "admin"
    ? Effect.void
    : Effect.fail(
        new Conflict({
          message: "This would leave the organization without an admin.",
          hint: "Make another member an admin first."
        })
      )

export const OrganizationsLive = Layer.effect(
  Organizations,
  Effect.gen(function* () {
    const organizations = yield* OrganizationsRepo
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const lifecycle = yield* OrganizationLifecycle
    const invitations = yield* InvitationsRepo

    /** `user` among the members, with all of them; `NotFound` when not one. */
    const memberOf = (scope: OrganizationScope, user: UserId) =>
      Effect.flatMap(organizations.members(scope.organizationId), (all) => {
        const found = all.find((m) => m.user_id === user)
        return found
          ? Effect.succeed({ member: found, all })
          : Effect.fail(
              new NotFound({
                message: `User ${user} is not a member of '${scope.organizationName}'.`,
                hint: `GET /v1/organizations/${scope.organizationName}/members lists the members.`
              })
            )
      })

    return Organizations.of({
      ofUser: (user) =>
        Effect.map(organizations.membershipsOfUser(user), (rows) =>
          rows.map((m) => new OrganizationMembership({ name: m.organization_name, role: m.role }))
        ),

      create: (name, admin) => Effect.asVoid(lifecycle.create(name, admin)),

      rename: (scope, name) => lifecycle.rename(scope.organizationId, name),

      remove: (scope) => lifecycle.delete(scope.organizationId),

      members: (scope) =>
        Effect.map(organizations.members(scope.organizationId), (rows) => rows.map(toMember)),

      addMember: (scope, request) =>
        Effect.gen(function* () {
          // Hashed either way, so the time taken does not tell whether the account exists.
          const hash =
            request.password === undefined ? null : yield* passwords.hash(request.password)
          const created = yield* users.createIfAbsent(request.email, hash)
          if (Option.isSome(created)) {
            const user = created.value
            yield* organizations.setRole(scope.organizationId, user.id, request.role)
            return new AddedMember({
              user_id: user.id,
              email: user.email,
              role: request.role,
              status: "member"
            })
          }
          const existing = yield* users.findByEmail(request.email)
          if (Option.isNone(existing)) return yield* Effect.die("a user vanished while added")
          const user = existing.value
          const all = yield* organizations.members(scope.organizationId)
          if (all.some((m) => m.user_id === user.id)) {
            return yield* new Conflict({
              message: `${user.email} is already a member of '${scope.organizationName}'.`,
              hint: "PATCH the member to change the role."
            })
          }
          yield* invitations.invite(scope.organizationId, user.id, request.role, scope.user.userId)
          return new AddedMember({ email: user.email, role: request.role, status: "invited" })
        }),

      setRole: (scope, user, role) =>
        Effect.gen(function* () {
          const { member, all } = yield* memberOf(scope, user)
          yield* keepsAnAdmin(all, member.user_id, role)
          yield* organizations.setRole(scope.organizationId, member.user_id, role)
          return toMember({ ...member, role })
        }),

      removeMember: (scope, user) =>
        Effect.gen(function* () {
          const { member, all } = yield* memberOf(scope, user)
          yield* keepsAnAdmin(all, member.user_id, null)
          yield* organizations.removeMember(scope.organizationId, member.user_id)
        }),

      invitations: (scope) =>
        Effect.map(invitations.ofOrganization(scope.organizationId), (rows) =>
          rows.map(
            (row) =>
              new SentInvitation({
                id: row.id,
                email: row.email,
                role: row.role,
                invited_at: iso(row.created_at)
              })
          )
        ),

      cancelInvitation: (scope, id) =>
        Effect.flatMap(invitations.cancel(scope.organizationId, id), (cancelled) =>
          cancelled ? Effect.void : Effect.fail(noInvitation)
        ),

      invitationsOf: (user) =>
        Effect.map(invitations.ofUser(user), (rows) =>
          rows.map(
            (row) =>
              new Invitation({
                id: row.id,
                organization: { name: row.organization_name },
                role: row.role,
                invited_by: row.invited_by,
                invited_at: iso(row.created_at)
              })
          )
        ),

      accept: (id, user) =>
        Effect.flatMap(invitations.accept(id, user), (accepted) =>
          Option.match(accepted, {
            onNone: () => Effect.fail(noInvitation),
            onSome: ({ organization_name, role }) =>
              Effect.succeed(new OrganizationMembership({ name: organization_name, role }))
          })
        ),

      decline: (id, user) =>
        Effect.flatMap(invitations.decline(id, user), (declined) =>
          declined ? Effect.void : Effect.fail(noInvitation)
        )
    })
  })
)
