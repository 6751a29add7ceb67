/**
 * Lifecycle, idling, the app gate, authorization and cancel, through the capabilities'
 * contracts on the in-memory composition (layers/Test.ts): real engines in this process,
 * no HTTP, and time only as the `TestClock` moves it.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Exit, Option, Redacted, Stream, TestClock } from "effect"
import { ClusterSize, CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { Engines } from "../../domain/Engine.js"
import { Authenticator } from "../../domain/Identity.js"
import type { ApiKeyCaller, Permission } from "../../domain/Identity.js"
import { QueryRunner, QueryStatement } from "../../domain/QueryRunner.js"
import { InMemoryLive } from "../../layers/Test.js"
import { idleSweep } from "../../src/clusters/Idling.js"
import { ApiKeysRepo, NewApiKey } from "../../src/identity/ApiKeysRepo.js"
import { ApiKeyTokens } from "../../src/identity/ApiKeyTokens.js"
import { adminKeyCaller, settled } from "../support/inMemory.js"

const sized = (name: string, idle_timeout_minutes?: number) =>
  new CreateClusterRequest({
    name,
    replicas: 1,
    size: new ClusterSize({ cpu_cores: 1, memory_gib: 4 }),
    ...(idle_timeout_minutes === undefined ? {} : { idle_timeout_minutes })
  })

/** A new API key of the admin key's cluster with `permission`, authenticated. */
const keyWith = (admin: ApiKeyCaller, permission: Permission) =>
  Effect.gen(function* () {
    const tokens = yield* ApiKeyTokens
    const token = Redacted.value(tokens.generate())
    yield* (yield* ApiKeysRepo).create(
      new NewApiKey({
        organization_id: admin.organizationId,
        cluster_id: admin.clusterId,
        name: `${permission} key`,
        permission,
        default_database: "default",
        token_hash: tokens.digest(token),
        token_hint: "rt_***",
        created_by_user_id: null,
        created_by_key_id: admin.keyId
      })
    )
    const caller = yield* (yield* Authenticator).authenticate(Redacted.make(token))
    return { token, caller }
  })

layer(InMemoryLive(), { timeout: 120_000 })("capabilities in memory", (it) => {
  it.effect("a cluster provisions, pauses, conflicts mid-transition, resumes and is deleted", () =>
    Effect.gen(function* () {
      const lifecycle = yield* ClusterLifecycle
      const admin = yield* adminKeyCaller
      const created = yield* lifecycle.create(admin.organizationId, sized("lc"))
      expect(created.phase).toBe("provisioning")
      expect(Option.map(yield* settled(created.id), (s) => s.phase)).toEqual(Option.some("ready"))

      const pausing = yield* lifecycle.pause(created, "admin")
      expect(pausing.phase).toBe("pausing")
      // Recorded at once: a second pause while it is pausing is refused, by name.
      const again = yield* Effect.flip(lifecycle.pause(pausing, "admin"))
      expect(again._tag).toBe("ClusterTransitionConflict")
      expect(again.message).toBe("Cannot pause cluster 'lc' while it is pausing.")
      const paused = Option.getOrThrow(yield* settled(created.id))
      expect([paused.phase, paused.pausedBy]).toEqual(["paused", "admin"])

      // An admin's pause is not undone by a data request.
      const refused = yield* Effect.flip((yield* Engines).forCluster(created.id))
      expect(refused._tag).toBe("ClusterPaused")

      yield* lifecycle.resume(pausing)
      expect(Option.getOrThrow(yield* settled(created.id)).phase).toBe("ready")

      const renamed = yield* lifecycle.update(pausing, { name: "lc2" })
      expect(renamed.name).toBe("lc2")
      const duplicate = yield* Effect.flip(lifecycle.update(renamed, { name: "default" }))
      expect(duplicate._tag).toBe("DuplicateClusterName")

      // Deleted is gone at once, on every node: no phase, and no engine for a data request.
      yield* lifecycle.delete(renamed)
      expect(Option.isNone(yield* lifecycle.stateOf(created.id))).toBe(true)
      const gone = yield* Effect.flip((yield* Engines).forCluster(created.id))
      expect([gone._tag, gone.message]).toEqual([
        "EngineUnavailable",
        "The cluster no longer exists."
      ])
    })
  )

  it.effect("an idle cluster is paused as idle after its timeout, and woken by use", () =>
    Effect.gen(function* () {
      const lifecycle = yield* ClusterLifecycle
      const engines = yield* Engines
      const admin = yield* adminKeyCaller
      const since = 0
      const created = yield* lifecycle.create(admin.organizationId, sized("sleepy", 15))
      yield* settled(created.id)
      yield* lifecycle.touch(created.id)

      yield* TestClock.adjust("14 minutes")
      yield* idleSweep(since)
      expect(Option.getOrThrow(yield* settled(created.id)).phase).toBe("ready")

      yield* TestClock.adjust("2 minutes")
      yield* idleSweep(since)
      const idle = Option.getOrThrow(yield* settled(created.id))
      expect([idle.phase, idle.pausedBy]).toEqual(["paused", "idle"])

      // The next use wakes it, and counts as activity: 14 more minutes are not idle.
      yield* engines.forCluster(created.id)
      expect(Option.getOrThrow(yield* settled(created.id)).phase).toBe("ready")
      yield* TestClock.adjust("14 minutes")
      yield* idleSweep(since)
      expect(Option.getOrThrow(yield* settled(created.id)).phase).toBe("ready")

      // The bootstrap cluster has idling off: never paused, however long it sits. (Each
      // minute the clock moves also runs the service's own sweep, so hours, not days.)
      yield* TestClock.adjust("3 hours")
      yield* idleSweep(since)
      expect(Option.getOrThrow(yield* settled(admin.clusterId)).phase).toBe("ready")
    })
  )

  it.effect("an app's gate is closed until it is installed and again once uninstalled", () =>
    Effect.gen(function* () {
      const apps = yield* AppRegistry
      const admin = yield* adminKeyCaller
      const closed = yield* Effect.flip(apps.require(admin.clusterId, "spl-app"))
      expect(closed._tag).toBe("AppNotInstalled")
      expect(closed.hint).toBe(
        "An organization admin installs spl-app (SPL search and event ingest) with PUT /v1/apps/spl-app?organization=default&cluster=default."
      )
      expect((yield* apps.install(admin.clusterId, "spl-app")).installed).toBe(true)
      yield* apps.require(admin.clusterId, "spl-app")
      const listed = yield* apps.list(admin.clusterId)
      expect(listed.filter((app) => app.installed).map((app) => app.id)).toEqual(["spl-app"])
      yield* apps.uninstall(admin.clusterId, "spl-app")
      expect(Exit.isFailure(yield* Effect.exit(apps.require(admin.clusterId, "spl-app")))).toBe(
        true
      )
    })
  )

  it.effect("a key may do what its permission allows, in its own cluster only", () =>
    Effect.gen(function* () {
      const authorization = yield* Authorization
      const admin = yield* adminKeyCaller
      const reader = (yield* keyWith(admin, "read_only")).caller
      const writer = (yield* keyWith(admin, "write_only")).caller

      const scope = yield* authorization.clusterScope(reader, "query", {})
      expect([scope.clusterName, scope.defaultDatabase]).toEqual(["default", "default"])
      const noInsert = yield* Effect.flip(authorization.clusterScope(reader, "insert", {}))
      expect(noInsert.message).toBe("An API key with read_only permission may not insert data.")
      const noQuery = yield* Effect.flip(authorization.clusterScope(writer, "query", {}))
      expect(noQuery._tag).toBe("Forbidden")
      const elsewhere = yield* Effect.flip(
        authorization.clusterScope(admin, "read", { cluster: "another" })
      )
      expect(elsewhere.message).toBe("This API key belongs to another organization or cluster.")
      const userOnly = yield* Effect.flip(
        authorization.organizationScope(admin, "default", "member", "list members")
      )
      expect(userOnly._tag).toBe("Forbidden")

      // Its database: the asked-for one if the cluster has it.
      const selection = yield* DatabaseSelection
      expect(yield* selection.select(scope, undefined)).toBe("default")
      const missing = yield* Effect.flip(selection.select(scope, "nope"))
      expect([missing._tag, missing.message]).toEqual([
        "DatabaseNotFound",
        "Database 'nope' not found in cluster 'default'."
      ])
      expect((yield* Effect.flip(selection.select(scope, "1x")))._tag).toBe("InvalidDatabaseName")
    })
  )

  it.effect("a running query is cancelled by its id from its own scope only", () =>
    Effect.gen(function* () {
      const runner = yield* QueryRunner
      const authorization = yield* Authorization
      const admin = yield* adminKeyCaller
      const scope = yield* authorization.clusterScope(admin, "query", {})
      const database = yield* (yield* DatabaseSelection).select(scope, undefined)
      const statement = new QueryStatement({
        sql: "SELECT number FROM system.numbers",
        format: "TSV",
        queryId: "endless"
      })
      const result = yield* runner.run(scope, database, statement)
      expect(result._tag).toBe("Streamed")
      if (result._tag !== "Streamed") return

      // While it runs, its id is taken in that database.
      const taken = yield* Effect.flip(runner.run(scope, database, statement))
      expect([taken._tag, taken.message]).toEqual([
        "Conflict",
        "A query with id 'endless' is already running."
      ])
      const unknown = yield* Effect.flip(runner.cancel(scope, database, "other"))
      expect(unknown._tag).toBe("NotFound")

      yield* runner.cancel(scope, database, "endless")
      const rest = yield* Effect.exit(Stream.runCollect(result.rest))
      const failure = Exit.isFailure(rest) ? Option.getOrNull(Exit.causeOption(rest)) : null
      expect(Exit.isFailure(rest), String(failure)).toBe(true)
      expect(String(failure)).toContain("The query was cancelled.")

      // Over: the id is free again.
      const again = yield* runner.run(
        scope,
        database,
        new QueryStatement({ sql: "SELECT 1 AS one", format: "TSV", queryId: "endless" })
      )
      expect(again._tag).toBe("Whole")
      if (again._tag === "Whole") expect(Buffer.from(again.body).toString()).toBe("1\n")
    })
  )
})
