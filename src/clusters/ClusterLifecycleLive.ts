/**
 * `ClusterLifecycle` over the control plane and the `Provisioner`: a transition is a
 * compare-and-set on the phase, then the engine work in the background, serialised per
 * cluster (`EngineLocks`) so a delete never races a resume. Renames and deletes are
 * published (`ClusterEvents`) for the caches that hold cluster names or keys; each change
 * drops the cluster's cached phase on every node.
 */
import { Clock, Duration, Effect, Layer, Option } from "effect"
import type { CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { ClusterLifecycle, ClusterState } from "../../domain/ClusterLifecycle.js"
import type { ClusterRecord, ClusterUpdate, PausedBy } from "../../domain/ClusterLifecycle.js"
import { ClusterTransitionConflict, DuplicateClusterName, Forbidden } from "../../domain/Errors.js"
import type { ClusterId, OrganizationId } from "../../domain/Ids.js"
import { EngineSpec, Provisioner } from "../../domain/Provisioner.js"
import { DatabasesRepo } from "../databases/DatabasesRepo.js"
import { ClusterConfig } from "./ClusterConfig.js"
import { ClusterEvents } from "./ClusterEvents.js"
import { ClustersRepo, NewCluster } from "./ClustersRepo.js"
import { EngineLocks } from "./EngineLocks.js"
import * as SizeCatalog from "./SizeCatalog.js"
import { isUniqueViolation } from "../store/UniqueViolation.js"
import * as TtlCache from "../cache/TtlCache.js"

const GIB = 1024 ** 3
/**
 * How often a node records a busy cluster's activity in the control plane, where the node
 * that idles clusters reads it: a request served elsewhere counts up to this much late.
 */
const SHARE_ACTIVITY_EVERY = 15_000
const DEFAULT_DATABASE = "default"
/** How long a cluster's phase is reused when no node says it changed. */
const STATE_TTL = Duration.seconds(5)

export const engineSpec = (row: ClusterRecord) =>
  new EngineSpec({
    clusterId: row.id,
    cpuCores: row.cpu_cores,
    memoryBytes: row.memory_gib * GIB,
    replicas: row.replicas
  })

const duplicateName = (name: string) =>
  new DuplicateClusterName({
    message: `A cluster named '${name}' already exists in this organization.`,
    hint: "Pick another name, or GET /v1/clusters to find the existing one."
  })

const clusterLimit = (limit: number) =>
  new Forbidden({
    message: `This organization has ${limit} clusters, as many as one organization may have.`,
    hint: "Delete a cluster it no longer needs, or ask the operator to raise SLUICE_MAX_CLUSTERS_PER_ORGANIZATION."
  })

const conflict = (row: ClusterRecord, action: string) =>
  new ClusterTransitionConflict({
    message: `Cannot ${action} cluster '${row.name}' while it is ${row.phase}.`,
    hint:
      row.phase === "pausing" || row.phase === "resuming" || row.phase === "provisioning"
        ? "Wait for the transition to finish (GET the cluster and follow status, can_pause, can_resume)."
        : `The cluster's can_pause and can_resume say what is possible now.`
  })

export const ClusterLifecycleLive = Layer.scoped(
  ClusterLifecycle,
  Effect.gen(function* () {
    const repo = yield* ClustersRepo
    const provisioner = yield* Provisioner
    const databases = yield* DatabasesRepo
    const events = yield* ClusterEvents
    const locks = yield* EngineLocks
    const config = yield* ClusterConfig
    const catalog = SizeCatalog.makeCatalog(config)
    const scope = yield* Effect.scope
    const activity = new Map<ClusterId, number>()
    /**
     * Each cluster's phase as last read. Every phase change goes through a lifecycle, which
     * drops the cluster's entry on every node once the change is committed.
     */
    const states = yield* TtlCache.shared("cluster_states", {
      ttl: STATE_TTL,
      capacity: 10_000,
      keyOf: (id: ClusterId) => id,
      lookup: (id: ClusterId) =>
        Effect.map(
          repo.findById(id),
          Option.map(
            (row) =>
              new ClusterState({ phase: row.phase, pausedBy: row.paused_by, name: row.name }, true)
          )
        )
    })
    const transition = (t: Parameters<typeof repo.transition>[0]) =>
      Effect.tap(repo.transition(t), () => states.invalidate(t.id))

    // Recorded for the other nodes too, at most once per `SHARE_ACTIVITY_EVERY` a cluster.
    const shared = new Map<ClusterId, number>()
    const touch = (id: ClusterId) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        activity.set(id, now)
        if (now - (shared.get(id) ?? -Infinity) < SHARE_ACTIVITY_EVERY) return Effect.void
        shared.set(id, now)
        return Effect.asVoid(Effect.forkIn(repo.recordActivity(id, now), scope))
      })

    /** Runs `work` after any earlier work on the cluster's engine, outliving the request. */
    const background = (id: ClusterId, work: Effect.Effect<unknown>) =>
      Effect.asVoid(Effect.forkIn(locks.withEngine(id, work), scope))

    const startEngine = (row: ClusterRecord, from: "provisioning" | "resuming") =>
      provisioner.start(engineSpec(row)).pipe(
        Effect.matchEffect({
          onSuccess: () =>
            Effect.zipRight(
              transition({
                id: row.id,
                from: [from],
                to: "ready",
                paused_by: null,
                status_message: null
              }),
              touch(row.id)
            ),
          onFailure: (error) =>
            transition({
              id: row.id,
              from: [from],
              to: from === "resuming" ? "paused" : "provisioning",
              paused_by: from === "resuming" ? "admin" : null,
              status_message: error.message
            })
        })
      )

    const stopEngine = (row: ClusterRecord) =>
      Effect.zipRight(
        provisioner.stop(row.id),
        transition({
          id: row.id,
          from: ["pausing"],
          to: "paused",
          paused_by: row.paused_by,
          status_message: null
        })
      )

    const create = Effect.fn("ClusterLifecycle.create")(function* (
      organization: OrganizationId,
      request: CreateClusterRequest
    ) {
      const sized = yield* SizeCatalog.resolve(catalog, request)
      // `s3_storage` is the name `rtree` sends; the HTTP edge has refused the two disagreeing.
      const storage = request.byo_s3 ?? request.s3_storage
      const created = yield* repo
        .createWithin(
          new NewCluster({
            organization_id: organization,
            name: request.name,
            phase: "provisioning",
            replicas: sized.replicas,
            cpu_cores: sized.size.cpu_cores,
            memory_gib: sized.size.memory_gib,
            min_cpu_cores: sized.min.cpu_cores,
            min_memory_gib: sized.min.memory_gib,
            max_cpu_cores: sized.max.cpu_cores,
            max_memory_gib: sized.max.memory_gib,
            idle_timeout_minutes: request.idle_timeout_minutes ?? config.defaultIdleTimeoutMinutes,
            byo_s3:
              storage === undefined
                ? null
                : { ...storage, external_id: yield* repo.externalIdOf(organization) }
          }),
          config.maxClustersPerOrganization
        )
        .pipe(
          Effect.catchAll((error) =>
            isUniqueViolation(error) ? Effect.fail(duplicateName(request.name)) : Effect.die(error)
          )
        )
      if (Option.isNone(created)) return yield* clusterLimit(config.maxClustersPerOrganization)
      const row = created.value
      yield* databases.create(row.id, DEFAULT_DATABASE)
      yield* background(row.id, startEngine(row, "provisioning"))
      return row
    })

    const pause = Effect.fn("ClusterLifecycle.pause")(function* (row: ClusterRecord, by: PausedBy) {
      const moved = yield* transition({
        id: row.id,
        from: ["ready"],
        to: "pausing",
        paused_by: by,
        status_message: null
      })
      if (Option.isNone(moved)) return yield* conflict(row, "pause")
      yield* background(row.id, stopEngine(moved.value))
      return moved.value
    })

    const resume = Effect.fn("ClusterLifecycle.resume")(function* (row: ClusterRecord) {
      const moved = yield* transition({
        id: row.id,
        from: ["paused"],
        to: "resuming",
        paused_by: null,
        status_message: null
      })
      if (Option.isNone(moved)) return yield* conflict(row, "resume")
      yield* background(row.id, startEngine(moved.value, "resuming"))
      return moved.value
    })

    /** Permanent: hidden and its keys revoked at once; engine and data removed after. */
    const remove = Effect.fn("ClusterLifecycle.delete")(function* (row: ClusterRecord) {
      yield* repo.markDeleted(row.id)
      // Its keys were revoked with it: no cached lookup may outlive that.
      yield* events.publish({ cluster: row.id, change: "deleted" })
      activity.delete(row.id)
      shared.delete(row.id)
      yield* states.invalidate(row.id)
      yield* background(row.id, provisioner.destroy(row.id))
    })

    const update = Effect.fn("ClusterLifecycle.update")(function* (
      row: ClusterRecord,
      fields: ClusterUpdate
    ) {
      const updated = yield* repo
        .update(row.id, {
          name: fields.name ?? null,
          idle_timeout_minutes: fields.idle_timeout_minutes ?? null
        })
        .pipe(
          Effect.catchAll((error) =>
            isUniqueViolation(error)
              ? Effect.fail(duplicateName(fields.name ?? row.name))
              : Effect.die(error)
          )
        )
      if (fields.idle_timeout_minutes !== undefined) yield* touch(row.id)
      if (fields.name !== undefined) yield* events.publish({ cluster: row.id, change: "renamed" })
      yield* states.invalidate(row.id)
      return Option.getOrElse(updated, () => row)
    })

    return ClusterLifecycle.of({
      sizes: catalog,
      clustersOf: repo.listOfOrganization,
      find: (organization, cluster) =>
        Effect.map(
          "id" in cluster ? repo.findById(cluster.id) : repo.findByName(organization, cluster.name),
          Option.filter((row) => row.organization_id === organization)
        ),
      externalId: repo.externalIdOf,
      create,
      pause,
      resume,
      delete: remove,
      update,
      touch,
      stateOf: states.get,
      lastActivity: (id: ClusterId) => Effect.sync(() => Option.fromNullable(activity.get(id))),
      boot: Effect.gen(function* () {
        for (const row of yield* repo.listAll()) {
          if (row.phase === "ready") {
            yield* background(row.id, Effect.ignore(provisioner.start(engineSpec(row))))
          } else if (row.phase === "provisioning" || row.phase === "resuming") {
            yield* background(row.id, startEngine(row, row.phase))
          } else if (row.phase === "pausing") {
            yield* background(row.id, stopEngine(row))
          }
        }
      }),
      ensureStarted: (id: ClusterId) =>
        Effect.flatMap(repo.findById(id), (found) =>
          Option.match(found, {
            onNone: () => Effect.void,
            onSome: (r) => locks.withEngine(r.id, provisioner.start(engineSpec(r)))
          })
        )
    })
  })
)
