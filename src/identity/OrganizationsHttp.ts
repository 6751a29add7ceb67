/**
 * `/v1/organizations` and `/v1/invitations` (`Organizations`): the caller's organizations,
 * and members and invitations managed by an organization's admins.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { OrganizationCreated } from "../../domain/api/OrganizationsApi.js"
import { Organizations } from "../../domain/Organizations.js"
import { requestScopes } from "../http/RequestScope.js"

const deleted = { deleted: true } as const

export const OrganizationsHttpLive = HttpApiBuilder.group(SluiceApi, "organizations", (handlers) =>
  Effect.gen(function* () {
    const scopes = yield* requestScopes
    const organizations = yield* Organizations
    const userId = Effect.map(scopes.user, (user) => user.userId)

    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          return { organizations: yield* organizations.ofUser(yield* userId) }
        })
      )
      .handle("create", ({ payload }) =>
        Effect.gen(function* () {
          yield* organizations.create(payload.organization_name, yield* userId)
          return new OrganizationCreated({ name: payload.organization_name })
        })
      )
      .handle("rename", ({ path, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "rename it")
          yield* organizations.rename(scope, payload.organization_name)
          return new OrganizationCreated({ name: payload.organization_name })
        })
      )
      .handle("delete", ({ path }) =>
        Effect.gen(function* () {
          yield* organizations.remove(
            yield* scopes.organizationScope(path.org, "admin", "delete it")
          )
          return deleted
        })
      )
      .handle("members", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "member", "list members")
          return { members: yield* organizations.members(scope) }
        })
      )
      .handle("addMember", ({ path, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "add members")
          return { member: yield* organizations.addMember(scope, payload) }
        })
      )
      .handle("invitations", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "list invitations")
          return { invitations: yield* organizations.invitations(scope) }
        })
      )
      .handle("cancelInvitation", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "withdraw invitations")
          yield* organizations.cancelInvitation(scope, path.invitation_id)
          return deleted
        })
      )
      .handle("myInvitations", () =>
        Effect.gen(function* () {
          return { invitations: yield* organizations.invitationsOf(yield* userId) }
        })
      )
      .handle("acceptInvitation", ({ path }) =>
        Effect.gen(function* () {
          return { organization: yield* organizations.accept(path.invitation_id, yield* userId) }
        })
      )
      .handle("declineInvitation", ({ path }) =>
        Effect.gen(function* () {
          yield* organizations.decline(path.invitation_id, yield* userId)
          return deleted
        })
      )
      .handle("updateMember", ({ path, payload }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "change roles")
          return { member: yield* organizations.setRole(scope, path.user_id, payload.role) }
        })
      )
      .handle("removeMember", ({ path }) =>
        Effect.gen(function* () {
          const scope = yield* scopes.organizationScope(path.org, "admin", "remove members")
          yield* organizations.removeMember(scope, path.user_id)
          return deleted
        })
      )
  })
)
