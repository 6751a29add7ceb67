/**
 * Organizations made, renamed and deleted by their users. A new one
 * starts as the first start's does: its maker as admin, a cluster `default` with
 * database `default`. Deleting one deletes its clusters as `DELETE /v1/clusters/{id}`
 * does (engines and data removed, keys revoked at once), then the organization's rows.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Either, Option } from "effect"
import { ClusterSize, CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { Conflict, Forbidden } from "../../domain/Errors.js"
import type { OrganizationId, UserId } from "../../domain/Ids.js"
import { ClusterConfig } from "../clusters/ClusterConfig.js"
import { ClusterEvents } from "../clusters/ClusterEvents.js"
import { isUniqueViolation } from "../store/UniqueViolation.js"
import { ClustersRepo } from "../clusters/ClustersRepo.js"
import { OrganizationsRepo } from "./OrganizationsRepo.js"

const DEFAULT_CLUSTER = "default"

const nameTaken = (name: string) =>
  new Conflict({
    message: `An organization named '${name}' already exists.`,
    hint: "Pick another name."
  })

const organizationLimit = (limit: number) =>
  new Forbidden({
    message: `You have created ${limit} organizations, as many as one user may.`,
    hint: "Delete an organization you no longer need, or ask the operator to raise SLUICE_MAX_ORGANIZATIONS_PER_USER."
  })

export class OrganizationLifecycle extends Effect.Service<OrganizationLifecycle>()(
  "sluice/OrganizationLifecycle",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const organizations = yield* OrganizationsRepo
      const clusters = yield* ClustersRepo
      const lifecycle = yield* ClusterLifecycle
      const events = yield* ClusterEvents
      // The catalog's smallest size: a new organization's cluster costs the least.
      const smallest = lifecycle.sizes.default_min_size
      const { maxOrganizationsPerUser: maxOrganizations } = yield* ClusterConfig

      return {
        create: Effect.fn("OrganizationLifecycle.create")(function* (name: string, admin: UserId) {
          const created = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                // One user's creates take turns, so none passes the limit by racing.
                yield* sql`select 1 from users where id = ${admin} for update`
                const [made] = yield* sql<{ n: number }>`select count(*)::int as n
                  from organizations where created_by_user_id = ${admin}`
                if ((made?.n ?? 0) >= maxOrganizations) return Either.left("limit" as const)
                const org = yield* organizations.createIfAbsent(name)
                if (Option.isSome(org)) {
                  yield* sql`update organizations set created_by_user_id = ${admin}
                    where id = ${org.value.id}`
                  yield* organizations.setRole(org.value.id, admin, "admin")
                }
                return Either.right(org)
              })
            )
            .pipe(Effect.orDie)
          if (Either.isLeft(created)) return yield* organizationLimit(maxOrganizations)
          if (Option.isNone(created.right)) return yield* nameTaken(name)
          // Its engine starts in the background, as for any new cluster.
          yield* lifecycle
            .create(
              created.right.value.id,
              new CreateClusterRequest({
                name: DEFAULT_CLUSTER,
                replicas: 1,
                size: new ClusterSize({
                  cpu_cores: smallest.cpu_cores,
                  memory_gib: smallest.memory_gib
                })
              })
            )
            .pipe(Effect.orDie)
          return created.right.value
        }),

        rename: Effect.fn("OrganizationLifecycle.rename")(function* (
          id: OrganizationId,
          name: string
        ) {
          yield* organizations
            .rename(id, name)
            .pipe(
              Effect.catchAll((error) =>
                isUniqueViolation(error) ? Effect.fail(nameTaken(name)) : Effect.die(error)
              )
            )
          // Key lookups carry the organization's name: they are forgotten as on a cluster rename.
          for (const cluster of yield* clusters.listOfOrganization(id)) {
            yield* events.publish({ cluster: cluster.id, change: "renamed" })
          }
        }),

        delete: Effect.fn("OrganizationLifecycle.delete")(function* (id: OrganizationId) {
          for (const cluster of yield* clusters.listOfOrganization(id)) {
            yield* lifecycle.delete(cluster)
          }
          yield* organizations.remove(id)
        })
      }
    })
  }
) {}
