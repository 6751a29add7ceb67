/**
 * `/v1/organizations`: the caller's organizations; members managed by org admins. An
 * admin adds a new email as a member at once, and invites an email that has an account:
 * its user joins by accepting (`/v1/invitations`), so no organization makes someone its
 * member unasked, nor sets or learns anything of an account it did not create.
 */
import { HttpApiBuilder } from "@effect/platform"
import { DateTime, Effect, Option } from "effect"
import { Conflict, NotFound } from "../../domain/Errors.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import type { UserId } from "../../domain/Ids.js"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import {
  AddedMember,
  Invitation,
  Member,
  OrganizationCreated,
  OrganizationMembership,
  SentInvitation
} from "../../domain/api/OrganizationsApi.js"
import { InvitationsRepo } from "./InvitationsRepo.js"
import { OrganizationLifecycle } from "./OrganizationLifecycle.js"
import type { MembershipRow } from "./OrganizationsRepo.js"
import { OrganizationsRepo } from "./OrganizationsRepo.js"
import { Passwords } from "./Passwords.js"
import type { OrganizationScope } from "../../domain/Authorization.js"
import { UsersRepo } from "./UsersRepo.js"

const toMember = (m: MembershipRow) =>
  new Member({ user_id: m.user_id, email: m.email, role: m.role })

const iso = (date: Date) => DateTime.formatIso(DateTime.unsafeFromDate(date))

const noInvitation = new NotFound({
  message: "There is no such pending invitation.",
  hint: "GET /v1/invitations lists yours; an organization's admins see its own at GET /v1/organizations/{org}/invitations."
})

export const OrganizationsHttpLive = HttpApiBuilder.group(SluiceApi, "organizations", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const organizations = yield* OrganizationsRepo
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const lifecycle = yield* OrganizationLifecycle
    const invitations = yield* InvitationsRepo

    const memberOf = (scope: OrganizationScope, userId: UserId) =>
      Effect.flatMap(organizations.members(scope.organizationId), (all) => {
        const found = all.find((m) => m.user_id === userId)
        return found
          ? Effect.succeed({ member: found, all })
          : Effect.fail(
              new NotFound({
                message: `User ${userId} is not a member of '${scope.organizationName}'.`,
                hint: `GET /v1/organizations/${scope.organizationName}/members lists the members.`
              })
            )
      })

    /** An organization always keeps at least one admin. */
    const keepsAnAdmin = (
      all: ReadonlyArray<MembershipRow>,
      userId: UserId,
      role: OrganizationRole | null
    ) =>
      all.some((m) => m.role === "admin" && m.user_id !== userId) || role === "admin"
        ? Effect.void
        : Effect.fail(
            new Conflict({
              message: "This would leave the organization without an admin.",
              hint: "Make another member an admin first."
            })
          )

    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          const user = yield* scopes.user
          const rows = yield* organizations.membershipsOfUser(user.userId)
          return {
            organizations: rows.map(
              (m) => new OrganizationMembership({ name: m.organization_name, role: m.role })
            )
          }
        })
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          const user = yield* scopes.user
          const created = yield* lifecycle.create(payload.organization_name, user.userId)
          return new OrganizationCreated({ name: created.name })
        })
      )
      .handle("rename", ({ path, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "rename it")
          yield* lifecycle.rename(scope.organizationId, payload.organization_name)
          return new OrganizationCreated({ name: payload.organization_name })
        })
      )
      .handle("delete", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "delete it")
          yield* lifecycle.delete(scope.organizationId)
          return { deleted: true } as const
        })
      )
      .handle("members", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "member", "list members")
          const rows = yield* organizations.members(scope.organizationId)
          return { members: rows.map(toMember) }
        })
      )
      .handle("addMember", ({ path, payload }) =>
        Effect.gen(function* () {
          const admin = yield* scopes.user
          const scope = yield* scopes.organizationScope(path.org, "admin", "add members")
          // Hashed either way, so the time taken does not tell whether the account exists.
          const hash =
            payload.password === undefined ? null : yield* passwords.hash(payload.password)
          const created = yield* users.createIfAbsent(payload.email, hash)
          if (Option.isSome(created)) {
            const user = created.value
            yield* organizations.setRole(scope.organizationId, user.id, payload.role)
            return {
              member: new AddedMember({
                user_id: user.id,
                email: user.email,
                role: payload.role,
                status: "member"
              })
            }
          }
          const existing = yield* users.findByEmail(payload.email)
          if (Option.isNone(existing)) return yield* Effect.die("a user vanished while added")
          const user = existing.value
          const all = yield* organizations.members(scope.organizationId)
          if (all.some((m) => m.user_id === user.id)) {
            return yield* new Conflict({
              message: `${user.email} is already a member of '${scope.organizationName}'.`,
              hint: "PATCH the member to change the role."
            })
          }
          yield* invitations.invite(scope.organizationId, user.id, payload.role, admin.userId)
          return {
            member: new AddedMember({ email: user.email, role: payload.role, status: "invited" })
          }
        })
      )
      .handle("invitations", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "list invitations")
          const rows = yield* invitations.ofOrganization(scope.organizationId)
          return {
            invitations: rows.map(
              (row) =>
                new SentInvitation({
                  id: row.id,
                  email: row.email,
                  role: row.role,
                  invited_at: iso(row.created_at)
                })
            )
          }
        })
      )
      .handle("cancelInvitation", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "withdraw invitations")
          const cancelled = yield* invitations.cancel(scope.organizationId, path.invitation_id)
          if (!cancelled) return yield* noInvitation
          return { deleted: true } as const
        })
      )
      .handle("myInvitations", () =>
        Effect.gen(function* () {
          const user = yield* scopes.user
          const rows = yield* invitations.ofUser(user.userId)
          return {
            invitations: rows.map(
              (row) =>
                new Invitation({
                  id: row.id,
                  organization: { name: row.organization_name },
                  role: row.role,
                  invited_by: row.invited_by,
                  invited_at: iso(row.created_at)
                })
            )
          }
        })
      )
      .handle("acceptInvitation", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* scopes.user
          const accepted = yield* invitations.accept(path.invitation_id, user.userId)
          if (Option.isNone(accepted)) return yield* noInvitation
          return {
            organization: new OrganizationMembership({
              name: accepted.value.organization_name,
              role: accepted.value.role
            })
          }
        })
      )
      .handle("declineInvitation", ({ path }) =>
        Effect.gen(function* () {
          const user = yield* scopes.user
          const declined = yield* invitations.decline(path.invitation_id, user.userId)
          if (!declined) return yield* noInvitation
          return { deleted: true } as const
        })
      )
      .handle("updateMember", ({ path, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "change roles")
          const { member, all } = yield* memberOf(scope, path.user_id)
          yield* keepsAnAdmin(all, member.user_id, payload.role)
          yield* organizations.setRole(scope.organizationId, member.user_id, payload.role)
          return { member: toMember({ ...member, role: payload.role }) }
        })
      )
      .handle("removeMember", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "remove members")
          const { member, all } = yield* memberOf(scope, path.user_id)
          yield* keepsAnAdmin(all, member.user_id, null)
          yield* organizations.removeMember(scope.organizationId, member.user_id)
          return { deleted: true } as const
        })
      )
  })
)
