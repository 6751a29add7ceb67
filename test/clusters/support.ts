/** Cluster suites: an admin session, creating clusters over HTTP, and waiting on phases. */
import { expect } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { Cluster } from "../../domain/api/ClusterModels.js"
import { ErrorBody } from "../../domain/Errors.js"
import { Engines } from "../../domain/Engine.js"
import { ClusterId } from "../../domain/Ids.js"
import { clientOf } from "../support/client.js"
import type { Reply } from "../support/server.js"
import { eventually } from "../support/eventually.js"
import { TestServer, bodyOf, call } from "../support/server.js"

export const ADMIN = "clusters-admin@example.com"
export const PASSWORD = "clusters admin password"
export const adminEnv = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

/** A cluster as the API answers it, decoded with the contract's schema. */
export type ClusterJson = Cluster

export const sessionOf = (email: string, password: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const reply = yield* call(server, "POST", "/v1/auth/login", { body: { email, password } })
    expect(reply.status, reply.text).toBe(200)
    return Schema.decodeUnknownSync(LoginResponse)(reply.json).token
  })

export const adminSession = sessionOf(ADMIN, PASSWORD)

export const request = (
  method: string,
  path: string,
  token: string,
  body?: unknown
): Effect.Effect<Reply, never, TestServer> =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, path, body === undefined ? { token } : { token, body })
  )

export const expectError = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.json).toMatchObject({ error, message: expect.any(String), hint: expect.any(String) })
  return Schema.decodeUnknownSync(ErrorBody)(reply.json)
}

export const cluster = (reply: Reply): ClusterJson => {
  expect(reply.status, reply.text).toBeLessThan(300)
  return Schema.decodeUnknownSync(Cluster)(reply.json)
}

/** The typed client on the shared server with a bearer credential (a key or a session). */
export const clientWith = (token: string) =>
  Effect.flatMap(TestServer, (server) => clientOf(server, token))

/**
 * Looks at the cluster until `done` holds: its transition runs in the background (an
 * engine worker starting or stopping), which a test cannot await.
 */
export const awaitCluster = (token: string, id: string, done: (c: ClusterJson) => boolean) =>
  Effect.gen(function* () {
    const client = yield* clientWith(token)
    const get = client.clusters
      .get({ path: { cluster_id: ClusterId.make(id) }, urlParams: { organization: "default" } })
      .pipe(Effect.orDie)
    return yield* eventually(
      `cluster ${id} to reach the expected state`,
      Effect.map(get, (c) => (done(c) ? c : undefined)),
      { attempts: 600, pauseMs: 100 }
    )
  })

export const awaitPhase = (token: string, id: string, phase: string) =>
  awaitCluster(token, id, (c) => c.status.phase === phase)

export const createCluster = (token: string, name: string, extra: Record<string, unknown> = {}) =>
  Effect.map(
    request("POST", "/v1/clusters?organization=default", token, {
      name,
      replicas: 1,
      size: { cpu_cores: 1, memory_gib: 4 },
      ...extra
    }),
    cluster
  )

/** An admin key of the named cluster, created with the session. */
export const keyOf = (token: string, clusterName: string) =>
  Effect.gen(function* () {
    const client = yield* clientWith(token)
    // Decoded only from the declared 201.
    const created = yield* client.keys.create({
      urlParams: { organization: "default", cluster: clusterName },
      payload: { name: `${clusterName} admin`, permission: "admin" }
    })
    return created.key.token
  }).pipe(Effect.orDie)

/** The id of the organization `default`'s cluster `default`, as the API lists it. */
export const defaultClusterId = (token: string) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const listed = yield* call(server, "GET", "/v1/clusters?organization=default", { token })
    const clusters = bodyOf(Schema.Struct({ clusters: Schema.Array(Cluster) }), listed).clusters
    return ClusterId.make(clusters.find((c) => c.name === "default")!.id)
  })

/** The test server's default cluster, and its engine as the server's own code reaches it. */
export const defaultClusterEngine = Effect.gen(function* () {
  const server = yield* TestServer
  const clusterId = yield* defaultClusterId(yield* adminSession)
  const engine = yield* Context.get(server.context, Engines).forCluster(clusterId)
  return { clusterId, engine }
})
