/**
 * Organizations made, renamed and deleted by their users (decisions.md §2). A new one
 * starts as the first start's does: its maker as admin, a cluster `default` with
 * database `default`. Deleting one deletes its clusters as `DELETE /v1/clusters/{id}`
 * does (engines and data removed, keys revoked at once), then the organization's rows.
 */
import { SqlClient } from "@effect/sql"
import { Effect, Option } from "effect"
import { ClusterSize, CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { Conflict } from "../../domain/Errors.js"
import type { OrganizationId, UserId } from "../../domain/Ids.js"
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

      return {
        create: Effect.fn("OrganizationLifecycle.create")(function* (name: string, admin: UserId) {
          const created = yield* sql
            .withTransaction(
              Effect.gen(function* () {
                const org = yield* organizations.createIfAbsent(name)
                if (Option.isSome(org)) {
                  yield* organizations.setRole(org.value.id, admin, "admin")
                }
                return org
              })
            )
            .pipe(Effect.orDie)
          if (Option.isNone(created)) return yield* nameTaken(name)
          // Its engine starts in the background, as for any new cluster.
          yield* lifecycle
            .create(
              created.value.id,
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
          return created.value
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
