/** `/v1/organizations`: the caller's organizations; members managed by org admins. */
import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { Conflict, NotFound } from "../../domain/Errors.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import type { UserId } from "../../domain/Ids.js"
import { requestScopes } from "../http/RequestScope.js"
import { SluiceApi } from "../../domain/Api.js"
import {
  Member,
  OrganizationCreated,
  OrganizationMembership
} from "../../domain/api/OrganizationsApi.js"
import { OrganizationLifecycle } from "./OrganizationLifecycle.js"
import type { MembershipRow } from "./OrganizationsRepo.js"
import { OrganizationsRepo } from "./OrganizationsRepo.js"
import { Passwords } from "./Passwords.js"
import type { OrganizationScope } from "../../domain/Authorization.js"
import { UsersRepo } from "./UsersRepo.js"

const toMember = (m: MembershipRow) =>
  new Member({ user_id: m.user_id, email: m.email, role: m.role })

export const OrganizationsHttpLive = HttpApiBuilder.group(SluiceApi, "organizations", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const organizations = yield* OrganizationsRepo
    const users = yield* UsersRepo
    const passwords = yield* Passwords
    const lifecycle = yield* OrganizationLifecycle

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
          const scope = yield* scopes.organizationScope(path.org, "admin", "add members")
          const existing = yield* users.findByEmail(payload.email)
          const user = Option.isSome(existing)
            ? existing.value
            : yield* users.create(
                payload.email,
                payload.password === undefined ? null : yield* passwords.hash(payload.password)
              )
          const all = yield* organizations.members(scope.organizationId)
          if (all.some((m) => m.user_id === user.id)) {
            return yield* new Conflict({
              message: `${user.email} is already a member of '${scope.organizationName}'.`,
              hint: "PATCH the member to change the role."
            })
          }
          yield* organizations.setRole(scope.organizationId, user.id, payload.role)
          return { member: new Member({ user_id: user.id, email: user.email, role: payload.role }) }
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
