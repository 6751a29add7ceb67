/**
 * Clusters over HTTP on the provisioner the suite runs on (embedded, or a ClickHouse
 * server): create from the catalog, use the new
 * cluster's own engine, every row of the lifecycle table (stop, resume, conflicts,
 * delete), PATCH, and the validation of a create request.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Deferred, Effect, Schema } from "effect"
import { ClusterId } from "../../domain/Ids.js"
import { EngineLocks } from "../../src/clusters/EngineLocks.js"
import * as fs from "node:fs"
import * as path from "node:path"
import { clientOf } from "../support/client.js"
import { clusterDataExists } from "../support/engineSettings.js"
import { eventually } from "../support/eventually.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { TestServer, call, freshDataDir } from "../support/server.js"
import type { Reply } from "../support/server.js"
import {
  adminEnv,
  adminSession,
  awaitPhase,
  clientWith,
  cluster,
  createCluster,
  expectError,
  keyOf,
  request
} from "./support.js"

const q = "?organization=default"

const Listed = Schema.Struct({
  clusters: Schema.Array(Schema.Struct({ id: Schema.String, name: Schema.String }))
})

/** The names and ids of the clusters a list reply holds. */
const listed = (reply: Reply) => Schema.decodeUnknownSync(Listed)(reply.json).clusters

/** Takes the cluster engine's lock until `release`: its transitions wait behind it. */
const holdEngine = (id: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const locks = Context.get(server.context, EngineLocks)
    const held = yield* Deferred.make<void>()
    const release = yield* Deferred.make<void>()
    yield* Effect.forkDaemon(
      locks.withEngine(
        ClusterId.make(id),
        Effect.zipRight(Deferred.succeed(held, undefined), Deferred.await(release))
      )
    )
    yield* Deferred.await(held)
    return { release: Deferred.succeed(release, undefined) }
  })

const insert = (token: string, table: string, rows: unknown) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", `/v1/tables/${table}`, { token, body: rows })
  )

const count = (token: string, table: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/query", {
      token,
      body: { sql: `SELECT count() AS n FROM ${table}`, format: "JSONEachRow" }
    })
  )

const dataDir = freshDataDir()

layer(TestServer.layer(dataDir, adminEnv), { excludeTestServices: true, timeout: 180_000 })(
  "cluster lifecycle",
  (it) => {
    it.effect("the size catalog needs no credential", () =>
      Effect.gen(function* () {
        // No token: the catalog needs no credential; decoded only from its 200.
        const anonymous = yield* clientOf(yield* TestServer)
        const catalog = yield* anonymous.clusterSizes.sizes()
        expect(catalog).toMatchObject({
          min_number_of_replicas: 1,
          max_number_of_replicas: 1,
          default_min_size: { cpu_cores: 1, memory_gib: 4 },
          default_max_size: { cpu_cores: 16, memory_gib: 64 }
        })
        expect(catalog.sizes).toContainEqual({
          size: "2 CPU / 8 GiB",
          cpu_cores: 2,
          memory_gib: 8
        })
      })
    )

    it.effect("a new cluster provisions, becomes ready and keeps its data apart", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const created = yield* createCluster(token, "analytics", {
          size: { cpu_cores: 2, memory_gib: 8 }
        })
        expect(created.status).toEqual({ phase: "provisioning", ready: false, message: null })
        expect(created.resources).toBeNull()
        expect([created.can_pause, created.can_resume]).toEqual([false, false])
        expect(created.created_at).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\+00:00$/)
        expect(created.idle_timeout_minutes).toBe(0)

        const ready = yield* awaitPhase(token, created.id, "ready")
        expect(ready).toMatchObject({
          status: { phase: "ready", ready: true, message: null },
          can_pause: true,
          can_resume: false,
          resources: {
            shards: 1,
            replicas: 1,
            cpu_cores_per_replica: 2,
            memory_bytes_per_replica: 8 * 1024 ** 3,
            minimum_size: { cpu_cores: 1, memory_bytes: 4 * 1024 ** 3 },
            maximum_size: { cpu_cores: 16, memory_bytes: 64 * 1024 ** 3 }
          }
        })
        const listed = yield* Effect.flatMap(clientWith(token), (client) =>
          client.clusters.list({ urlParams: { organization: "default" } })
        )
        expect(listed.clusters.map((c) => c.name)).toEqual(["default", "analytics"])

        const key = yield* keyOf(token, "analytics")
        expect((yield* insert(key, "events", [{ a: 1 }, { a: 2 }])).json).toEqual({ inserted: 2 })
        expect((yield* count(key, "events")).text.trim()).toBe('{"n":"2"}')
        const defaultKey = yield* keyOf(token, "default")
        const elsewhere = yield* count(defaultKey, "events")
        expect(elsewhere.status).toBe(400)
        expect(elsewhere.text).toMatch(/events/)
      })
    )

    it.effect("stop and resume answer at once, conflict mid-transition, and keep the data", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const created = yield* createCluster(token, "pausable")
        yield* awaitPhase(token, created.id, "ready")
        const key = yield* keyOf(token, "pausable")
        yield* insert(key, "kept", [{ x: "y" }])
        // Transitions finish in a fraction of a second; hold the engine's lock (as other
        // work on it would) so each one stays in progress while its conflicts are tried.
        const hold = yield* holdEngine(created.id)

        const pausing = cluster(
          yield* request("POST", `/v1/clusters/${created.id}/stop${q}`, token)
        )
        expect(pausing.status.phase).toBe("pausing")
        expect([pausing.status.ready, pausing.can_pause, pausing.can_resume]).toEqual([
          false,
          false,
          false
        ])
        expectError(
          yield* request("POST", `/v1/clusters/${created.id}/stop${q}`, token),
          409,
          "conflict"
        )
        expectError(
          yield* request("POST", `/v1/clusters/${created.id}/resume${q}`, token),
          409,
          "conflict"
        )
        yield* hold.release

        const paused = yield* awaitPhase(token, created.id, "paused")
        expect([paused.can_pause, paused.can_resume]).toEqual([false, true])
        expectError(
          yield* request("POST", `/v1/clusters/${created.id}/stop${q}`, token),
          409,
          "conflict"
        )
        const refused = expectError(yield* count(key, "kept"), 409, "cluster_paused")
        expect(refused.hint).toContain(`/v1/clusters/${created.id}/resume`)
        // Every data request of a paused cluster says so alike: inserts, tables, databases.
        const server = yield* TestServer
        for (const reply of [
          yield* insert(key, "kept", [{ n: 2 }]),
          yield* call(server, "GET", "/v1/tables", { token: key }),
          yield* call(server, "GET", "/v1/tables/kept", { token: key }),
          yield* call(server, "POST", "/v1/databases", { token: key, body: { name: "later" } })
        ])
          expect(expectError(reply, 409, "cluster_paused")).toEqual(refused)

        const holdAgain = yield* holdEngine(created.id)
        const resuming = cluster(
          yield* request("POST", `/v1/clusters/${created.id}/resume${q}`, token)
        )
        expect(resuming.status.phase).toBe("resuming")
        expectError(
          yield* request("POST", `/v1/clusters/${created.id}/resume${q}`, token),
          409,
          "conflict"
        )
        expectError(
          yield* request("POST", `/v1/clusters/${created.id}/stop${q}`, token),
          409,
          "conflict"
        )
        yield* holdAgain.release
        yield* awaitPhase(token, created.id, "ready")
        expect((yield* count(key, "kept")).text.trim()).toBe('{"n":"1"}')
      })
    )

    it.effect("delete is permanent: gone from lists, keys revoked, name free again", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const created = yield* createCluster(token, "doomed")
        yield* awaitPhase(token, created.id, "ready")
        const key = yield* keyOf(token, "doomed")
        yield* insert(key, "gone", [{ soon: true }])
        const stored = clusterDataExists(dataDir, ClusterId.make(created.id))
        expect(yield* stored).toBe(true)
        // A remote write accepted into the metrics write log: the log forgets the cluster too.
        const installed = yield* request("PUT", `/v1/apps/metrics-app${q}&cluster=doomed`, token)
        expect(installed.status, installed.text).toBe(200)
        const written = yield* Effect.flatMap(TestServer, (server) =>
          call(server, "POST", "/metrics-compat/api/v1/write", {
            token: key,
            rawBody: remoteWriteBody([{ labels: { __name__: "soon_gone" }, samples: [[0, 1]] }]),
            headers: REMOTE_WRITE_HEADERS
          })
        )
        expect(written.status, written.text).toBe(204)
        const logDir = path.join(dataDir, "metrics-log", created.id)
        expect(fs.existsSync(logDir)).toBe(true)
        const deleted = yield* request("DELETE", `/v1/clusters/${created.id}${q}`, token)
        expect(deleted.json).toEqual({ deleted: true })
        expect(fs.existsSync(logDir)).toBe(false)
        expectError(
          yield* request("GET", `/v1/clusters/${created.id}${q}`, token),
          404,
          "not_found"
        )
        const listed = yield* request("GET", `/v1/clusters${q}`, token)
        expect(JSON.stringify(listed.json)).not.toContain("doomed")
        expectError(yield* count(key, "anything"), 401, "unauthorized")
        expectError(
          yield* request("DELETE", `/v1/clusters/${created.id}${q}`, token),
          404,
          "not_found"
        )
        // The engine stops and its data goes, in the background.
        yield* eventually(
          "the deleted cluster's engine data to go",
          Effect.map(stored, (exists) => (exists ? undefined : true)),
          { attempts: 300, pauseMs: 100 }
        )
        const again = yield* createCluster(token, "doomed")
        expect(again.id).not.toBe(created.id)
      })
    )

    it.effect("PATCH changes name and idle timeout only; omitted fields stay", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const created = yield* createCluster(token, "renamed", { idle_timeout_minutes: 30 })
        const path = `/v1/clusters/${created.id}${q}`
        const key = yield* keyOf(token, "renamed")
        const before = yield* request("GET", "/v1/databases", key)
        expect(before.json).toMatchObject({ cluster: { name: "renamed" } })
        const renamed = cluster(yield* request("PATCH", path, token, { name: "renamed-2" }))
        expect([renamed.name, renamed.idle_timeout_minutes]).toEqual(["renamed-2", 30])
        // The key's next request already sees the new name.
        const after = yield* request("GET", "/v1/databases", key)
        expect(after.json).toMatchObject({ cluster: { name: "renamed-2" } })
        const idle = cluster(yield* request("PATCH", path, token, { idle_timeout_minutes: 0 }))
        expect([idle.name, idle.idle_timeout_minutes]).toEqual(["renamed-2", 0])
        expectError(
          yield* request("PATCH", path, token, { idle_timeout_minutes: 14 }),
          400,
          "bad_request"
        )
        expectError(
          yield* request("PATCH", path, token, { name: "default" }),
          409,
          "duplicate_name"
        )
      })
    )

    it.effect("cluster names follow the organization-name rule on create and rename", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const before = listed(yield* request("GET", `/v1/clusters${q}`, token))
        const id = before.find((c) => c.name === "default")?.id
        if (id === undefined) return yield* Effect.dieMessage("no cluster 'default'")
        for (const name of ["../y", "a/b", "", " spaced", "-lead", "é", "x".repeat(65)]) {
          const created = expectError(
            yield* request("POST", `/v1/clusters${q}`, token, {
              name,
              replicas: 1,
              size: { cpu_cores: 1, memory_gib: 4 }
            }),
            400,
            "bad_request"
          )
          expect(created.message, name).toContain("a cluster name is 1 to 64 letters")
          const renamed = expectError(
            yield* request("PATCH", `/v1/clusters/${id}${q}`, token, { name }),
            400,
            "bad_request"
          )
          expect(renamed.message, name).toContain("a cluster name is 1 to 64 letters")
        }
        expect(listed(yield* request("GET", `/v1/clusters${q}`, token))).toEqual(before)
      })
    )

    it.effect("a create that breaks the catalog is a 400 whose hint says what is allowed", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const create = (body: Record<string, unknown>) =>
          request("POST", `/v1/clusters${q}`, token, {
            name: "invalid",
            replicas: 1,
            size: { cpu_cores: 1, memory_gib: 4 },
            ...body
          })
        const size = expectError(
          yield* create({ size: { cpu_cores: 3, memory_gib: 4 } }),
          400,
          "bad_request"
        )
        expect(size.hint).toContain("{cpu_cores: 2, memory_gib: 8}")
        const replicas = expectError(yield* create({ replicas: 2 }), 400, "bad_request")
        expect(replicas.hint).toContain("1 through 1")
        const bounds = expectError(
          yield* create({
            size: { cpu_cores: 8, memory_gib: 32 },
            autoscaling: {
              min_size: { cpu_cores: 1, memory_gib: 4 },
              max_size: { cpu_cores: 4, memory_gib: 16 }
            }
          }),
          400,
          "bad_request"
        )
        expect(bounds.hint).toContain("{cpu_cores: 4, memory_gib: 16}")
        expectError(yield* create({ idle_timeout_minutes: 5 }), 400, "bad_request")
        expectError(yield* create({ idle_timeout_minutes: 43_201 }), 400, "bad_request")
        expectError(yield* create({ name: "default" }), 409, "duplicate_name")
        const listed = yield* request("GET", `/v1/clusters${q}`, token)
        expect(JSON.stringify(listed.json)).not.toContain('"invalid"')
      })
    )
  }
)
