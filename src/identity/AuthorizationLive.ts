/**
 * The one place that decides what a caller may do (`Authorization`), over the control
 * plane's organizations and clusters.
 */
import { Effect, Layer, Option } from "effect"
import { Authorization, ClusterScope, OrganizationScope } from "../../domain/Authorization.js"
import type { DataAction, ScopeNames } from "../../domain/Authorization.js"
import { BadRequest, Forbidden, NotFound } from "../../domain/Errors.js"
import type { Caller, OrganizationRole, Permission, UserCaller } from "../../domain/Identity.js"
import { ClustersRepo } from "../clusters/ClustersRepo.js"
import { OrganizationsRepo } from "./OrganizationsRepo.js"
import { actionDescription, keyMayDo, memberMayDo } from "./Scopes.js"

const userOnly = new Forbidden({
  message:
    "This endpoint needs a user session or an OAuth access token; cluster API keys are not accepted here.",
  hint: "Log in with POST /v1/auth/login and send the session token."
})

const DEFAULT_CLUSTER = "default"

// Scopes are built here from rows already validated: construction skips re-validation.
const trusted = true

export const AuthorizationLive = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const organizations = yield* OrganizationsRepo
    const clusters = yield* ClustersRepo

    const user = (caller: Caller) =>
      caller._tag === "UserCaller" ? Effect.succeed(caller) : Effect.fail(userOnly)

    const membershipOf = (caller: UserCaller, organization: string) =>
      Effect.gen(function* () {
        const all = yield* organizations.membershipsOfUser(caller.userId)
        const found = all.find((m) => m.organization_name === organization)
        if (found) return found
        return yield* new NotFound({
          message: `Organization '${organization}' not found.`,
          hint: "GET /v1/organizations lists the organizations you belong to."
        })
      })

    // Data requests may leave the organization out: the user's only one, else their
    // organization `default` (as an absent cluster is the organization's `default`).
    const membership = (caller: UserCaller, organization: string | undefined) =>
      organization !== undefined
        ? membershipOf(caller, organization)
        : Effect.gen(function* () {
            const all = yield* organizations.membershipsOfUser(caller.userId)
            const chosen =
              all.length === 1 ? all[0] : all.find((m) => m.organization_name === "default")
            if (chosen !== undefined) return chosen
            return yield* new BadRequest({
              message: "Name the organization with the `organization` query parameter.",
              hint: `Your organizations: ${all.map((m) => m.organization_name).join(", ") || "none"}.`
            })
          })

    const requireRole = (role: OrganizationRole, need: OrganizationRole, what: string) =>
      role === "admin" || need === "member"
        ? Effect.void
        : Effect.fail(
            new Forbidden({
              message: `Only organization admins may ${what}.`,
              hint: "Ask an admin of the organization."
            })
          )

    // Untraced, like the other per-request decisions (authentication, database selection):
    // they run on every request, mostly in memory, and a span would cost more than they
    // do; the control-plane reads they make are traced by the SQL client.
    return Authorization.of({
      user,

      organizationScope: Effect.fnUntraced(function* (
        caller: Caller,
        organization: string,
        need: OrganizationRole,
        what: string
      ) {
        const userCaller = yield* user(caller)
        const m = yield* membershipOf(userCaller, organization)
        yield* requireRole(m.role, need, what)
        return new OrganizationScope(
          {
            organizationId: m.organization_id,
            organizationName: m.organization_name,
            role: m.role,
            user: userCaller
          },
          trusted
        )
      }),

      clusterScope: Effect.fnUntraced(function* (
        caller: Caller,
        action: DataAction,
        params: ScopeNames
      ) {
        if (caller._tag === "ApiKeyCaller") {
          const mismatch =
            (params.organization !== undefined &&
              params.organization !== caller.organizationName) ||
            (params.cluster !== undefined && params.cluster !== caller.clusterName)
          if (mismatch) {
            return yield* new Forbidden({
              message: "This API key belongs to another organization or cluster.",
              hint: `The key is scoped to organization '${caller.organizationName}', cluster '${caller.clusterName}'.`
            })
          }
          if (!keyMayDo(caller.permission, action))
            return yield* forbiddenFor(caller.permission, action)
          return new ClusterScope(
            {
              organizationId: caller.organizationId,
              organizationName: caller.organizationName,
              clusterId: caller.clusterId,
              clusterName: caller.clusterName,
              defaultDatabase: caller.defaultDatabase,
              caller
            },
            trusted
          )
        }
        const m = yield* membership(caller, params.organization)
        if (!memberMayDo(m.role, action)) {
          yield* requireRole(m.role, "admin", actionDescription[action])
        }
        const all = yield* clusters.listOfOrganization(m.organization_id)
        // No cluster named: the only one, else the one named `default`.
        const cluster = Option.fromNullable(
          params.cluster === undefined
            ? all.length === 1
              ? all[0]
              : all.find((c) => c.name === DEFAULT_CLUSTER)
            : all.find((c) => c.name === params.cluster)
        )
        if (Option.isNone(cluster)) {
          const names = all.map((c) => c.name).join(", ") || "none"
          return yield* params.cluster === undefined
            ? new BadRequest({
                message: `'${m.organization_name}' has no cluster named '${DEFAULT_CLUSTER}' to fall back on: name one with the \`cluster\` query parameter.`,
                hint: `Clusters of '${m.organization_name}': ${names}.`
              })
            : new NotFound({
                message: `Cluster '${params.cluster}' not found in '${m.organization_name}'.`,
                hint: `Clusters of '${m.organization_name}': ${names}.`
              })
        }
        return new ClusterScope(
          {
            organizationId: m.organization_id,
            organizationName: m.organization_name,
            clusterId: cluster.value.id,
            clusterName: cluster.value.name,
            defaultDatabase: undefined,
            caller
          },
          trusted
        )
      })
    })
  })
)

const forbiddenFor = (permission: Permission, action: DataAction) =>
  new Forbidden({
    message: `An API key with ${permission} permission may not ${actionDescription[action]}.`,
    hint: "Use a key whose permission allows it (see GET /v1/keys with an admin key)."
  })
