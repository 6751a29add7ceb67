/**
 * Organizations made, renamed and deleted by their users, sent as the
 * command line sends them, and the cluster a user credential acts on when it names an
 * organization but no cluster: the only one, else `default`, else a 400 naming them.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { eventually } from "../support/eventually.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"

const ADMIN = "orgs-admin@example.com"
const PASSWORD = "orgs admin password"
const MEMBER = "orgs-member@example.com"
const OUTSIDER = "orgs-outsider@example.com"
const OTHER_PASSWORD = "another long password"
const CLI = { "x-service-client": "cli", "x-service-client-version": "2.3.0" }
const dataDir = freshDataDir("organizations")

const ErrorBody = Schema.Struct({
  error: Schema.String,
  message: Schema.String,
  hint: Schema.String
})
const Name = Schema.Struct({ name: Schema.String })
const Memberships = Schema.Struct({
  organizations: Schema.Array(Schema.Struct({ name: Schema.String, role: Schema.String }))
})
const Cluster = Schema.Struct({ id: Schema.String, name: Schema.String })
const Clusters = Schema.Struct({ organization: Name, clusters: Schema.Array(Cluster) })
const Databases = Schema.Struct({
  databases: Schema.Array(Name),
  organization: Name,
  cluster: Cluster
})

const send = (
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown
): Effect.Effect<Reply, never, TestServer> =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, url, {
      ...(token === undefined ? {} : { token }),
      ...(body === undefined ? {} : { body }),
      headers: CLI
    })
  )

const ok = <A, I>(schema: Schema.Schema<A, I>, reply: Reply, status = 200) => {
  expect(reply.status, reply.text).toBe(status)
  return bodyOf(schema, reply)
}

const refused = (reply: Reply, status: number, error: string) => {
  expect(reply.status, reply.text).toBe(status)
  expect(bodyOf(ErrorBody, reply)).toMatchObject({ error })
  return bodyOf(ErrorBody, reply)
}

const sessionOf = (email: string, password: string) =>
  Effect.map(send("POST", "/v1/auth/login", undefined, { email, password }), (reply) =>
    ok(LoginResponse, reply)
  ).pipe(Effect.map((r) => r.token))

const admin = sessionOf(ADMIN, PASSWORD)

const organizationsOf = (token: string) =>
  Effect.map(send("GET", "/v1/organizations", token), (r) => ok(Memberships, r).organizations)

const clustersOf = (token: string, org: string) =>
  Effect.map(send("GET", `/v1/clusters?organization=${org}`, token), (r) => ok(Clusters, r))

layer(TestServer.layer(dataDir, { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }), {
  excludeTestServices: true,
  timeout: 180_000
})("organizations", (it) => {
  it.effect("users create organizations; admins rename and delete them", () =>
    Effect.gen(function* () {
      const token = yield* admin
      const created = yield* send("POST", "/v1/organizations", token, { organization_name: "acme" })
      expect(ok(Name, created, 201)).toEqual({ name: "acme" })
      expect(yield* organizationsOf(token)).toEqual([
        { name: "acme", role: "admin" },
        { name: "default", role: "admin" }
      ])
      // It starts as a first start does: a cluster `default` holding database `default`.
      const { clusters } = yield* clustersOf(token, "acme")
      expect(clusters.map((c) => c.name)).toEqual(["default"])
      const databases = ok(Databases, yield* send("GET", "/v1/databases?organization=acme", token))
      expect(databases).toEqual({
        databases: [{ name: "default" }],
        organization: { name: "acme" },
        cluster: { id: clusters[0]!.id, name: "default" }
      })

      // An API key of the new cluster, to see that it follows a rename and dies with a delete.
      const key = bodyOf(
        Schema.Struct({ token: Schema.String }),
        yield* send("POST", "/v1/keys?organization=acme", token, {
          name: "acme writer",
          permission: "read_write"
        })
      ).token
      expect(ok(Databases, yield* send("GET", "/v1/databases", key)).organization).toEqual({
        name: "acme"
      })

      const renamed = yield* send("PATCH", "/v1/organizations/acme", token, {
        organization_name: "acme-labs"
      })
      expect(ok(Name, renamed)).toEqual({ name: "acme-labs" })
      expect((yield* organizationsOf(token)).map((o) => o.name)).toEqual(["acme-labs", "default"])
      refused(yield* send("GET", "/v1/clusters?organization=acme", token), 404, "not_found")
      expect((yield* clustersOf(token, "acme-labs")).clusters.map((c) => c.id)).toEqual([
        clusters[0]!.id
      ])
      // The key's scope carries the new name at once.
      const byKey = yield* send("GET", "/v1/databases?organization=acme-labs", key)
      expect(ok(Databases, byKey).organization).toEqual({ name: "acme-labs" })

      // Its engine is running, with its data on disk.
      const clusterDir = path.join(dataDir, "clusters", clusters[0]!.id)
      yield* eventually(
        "the new organization's cluster to be ready",
        Effect.map(
          send("GET", `/v1/clusters/${clusters[0]!.id}?organization=acme-labs`, token),
          (r) =>
            bodyOf(Schema.Struct({ status: Schema.Struct({ phase: Schema.String }) }), r).status
              .phase === "ready"
              ? true
              : undefined
        ),
        { attempts: 600, pauseMs: 100 }
      )
      expect(fs.existsSync(clusterDir)).toBe(true)

      const deleted = yield* send("DELETE", "/v1/organizations/acme-labs", token)
      expect(ok(Schema.Struct({ deleted: Schema.Literal(true) }), deleted)).toEqual({
        deleted: true
      })
      expect((yield* organizationsOf(token)).map((o) => o.name)).toEqual(["default"])
      refused(yield* send("GET", "/v1/clusters?organization=acme-labs", token), 404, "not_found")
      // Its keys are revoked and its cluster's engine and data removed.
      refused(yield* send("GET", "/v1/databases", key), 401, "unauthorized")
      yield* eventually(
        "the deleted organization's cluster data to be removed",
        Effect.sync(() => (fs.existsSync(clusterDir) ? undefined : true)),
        { attempts: 600, pauseMs: 100 }
      )
      refused(yield* send("DELETE", "/v1/organizations/acme-labs", token), 404, "not_found")

      // The name is free again; the first start's organization is untouched.
      expect(
        ok(
          Name,
          yield* send("POST", "/v1/organizations", token, { organization_name: "acme" }),
          201
        )
      ).toEqual({ name: "acme" })
      expect(
        ok(Databases, yield* send("GET", "/v1/databases?organization=default", token)).databases
      ).toContainEqual({ name: "default" })
    })
  )

  it.effect("names are checked and unique; only users may create", () =>
    Effect.gen(function* () {
      const token = yield* admin
      const server = yield* TestServer
      refused(
        yield* send("POST", "/v1/organizations", token, { organization_name: "default" }),
        409,
        "conflict"
      )
      for (const bad of ["", "has space", "-dash-first", "a/b", "x".repeat(65), "ünïcode"]) {
        const reply = yield* send("POST", "/v1/organizations", token, { organization_name: bad })
        const body = refused(reply, 400, "bad_request")
        expect(body.message).toContain("organization_name")
      }
      refused(yield* send("POST", "/v1/organizations", token, {}), 400, "bad_request")
      refused(yield* send("POST", "/v1/organizations", token, { name: "x" }), 400, "bad_request")
      refused(
        yield* send("POST", "/v1/organizations", token, { organization_name: 7 }),
        400,
        "bad_request"
      )
      refused(
        yield* send("POST", "/v1/organizations", undefined, { organization_name: "nobody" }),
        401,
        "unauthorized"
      )
      refused(
        yield* send("POST", "/v1/organizations", adminKeyOf(server), {
          organization_name: "bykey"
        }),
        403,
        "forbidden"
      )
      // None of the refused requests made one.
      expect((yield* organizationsOf(token)).map((o) => o.name)).not.toContain("bykey")
      expect((yield* organizationsOf(token)).map((o) => o.name)).not.toContain("nobody")
    })
  )

  it.effect("members may not rename or delete; outsiders and unknown names are 404", () =>
    Effect.gen(function* () {
      const token = yield* admin
      ok(
        Name,
        yield* send("POST", "/v1/organizations", token, { organization_name: "guarded" }),
        201
      )
      for (const [email, role] of [
        [MEMBER, "member"],
        [OUTSIDER, "member"]
      ] as const) {
        const added = yield* send(
          "POST",
          `/v1/organizations/${email === MEMBER ? "guarded" : "default"}/members`,
          token,
          { email, role, password: OTHER_PASSWORD }
        )
        expect(added.status, added.text).toBe(201)
      }
      const member = yield* sessionOf(MEMBER, OTHER_PASSWORD)
      const outsider = yield* sessionOf(OUTSIDER, OTHER_PASSWORD)
      refused(
        yield* send("PATCH", "/v1/organizations/guarded", member, { organization_name: "mine" }),
        403,
        "forbidden"
      )
      refused(yield* send("DELETE", "/v1/organizations/guarded", member), 403, "forbidden")
      refused(
        yield* send("PATCH", "/v1/organizations/guarded", outsider, { organization_name: "mine" }),
        404,
        "not_found"
      )
      refused(yield* send("DELETE", "/v1/organizations/guarded", outsider), 404, "not_found")
      refused(
        yield* send("PATCH", "/v1/organizations/nowhere", token, { organization_name: "x" }),
        404,
        "not_found"
      )
      refused(yield* send("DELETE", "/v1/organizations/nowhere", token), 404, "not_found")
      refused(
        yield* send("PATCH", "/v1/organizations/guarded", token, { organization_name: "default" }),
        409,
        "conflict"
      )
      refused(
        yield* send("PATCH", "/v1/organizations/guarded", token, { organization_name: "no way" }),
        400,
        "bad_request"
      )
      // Still there, still named so, for its member too.
      expect(yield* organizationsOf(member)).toEqual([{ name: "guarded", role: "member" }])
      // A member creates an organization of their own, and is its admin.
      ok(Name, yield* send("POST", "/v1/organizations", member, { organization_name: "own" }), 201)
      expect(yield* organizationsOf(member)).toEqual([
        { name: "guarded", role: "member" },
        { name: "own", role: "admin" }
      ])
    })
  )

  it.effect("naming no organization: the user's only one, else `default`, else a 400", () =>
    Effect.gen(function* () {
      const token = yield* admin
      const organizationOf = (session: string) =>
        Effect.map(send("GET", "/v1/databases", session), (r) => ok(Databases, r).organization)
      // The admin belongs to `default` and to organizations made above: `default`.
      expect((yield* organizationsOf(token)).length).toBeGreaterThan(1)
      expect(yield* organizationOf(token)).toEqual({ name: "default" })

      ok(Name, yield* send("POST", "/v1/organizations", token, { organization_name: "solo" }), 201)
      const email = "solo-member@example.com"
      const password = "a password long enough"
      yield* send("POST", "/v1/organizations/solo/members", token, {
        email,
        role: "admin",
        password
      })
      const member = yield* sessionOf(email, password)
      expect(yield* organizationOf(member)).toEqual({ name: "solo" })

      // Two organizations, neither `default`: the 400 names both.
      ok(
        Name,
        yield* send("POST", "/v1/organizations", member, { organization_name: "solo-own" }),
        201
      )
      const ambiguous = refused(yield* send("GET", "/v1/databases", member), 400, "bad_request")
      expect(ambiguous.message).toContain("organization")
      expect(ambiguous.hint).toContain("solo-own")
      expect(ambiguous.hint).toContain("solo")
      expect(yield* organizationOf(token)).toEqual({ name: "default" })
    })
  )

  it.effect(
    "naming the organization but no cluster: the only one, else `default`, else a 400",
    () =>
      Effect.gen(function* () {
        const token = yield* admin
        ok(
          Name,
          yield* send("POST", "/v1/organizations", token, { organization_name: "fallback" }),
          201
        )
        const clusterOf = (query: string) =>
          Effect.map(send("GET", `/v1/databases${query}`, token), (r) => ok(Databases, r).cluster)
        const [only] = (yield* clustersOf(token, "fallback")).clusters
        expect(yield* clusterOf("?organization=fallback")).toEqual({
          id: only!.id,
          name: "default"
        })

        const second = ok(
          Cluster,
          yield* send("POST", "/v1/clusters?organization=fallback", token, {
            name: "second",
            replicas: 1,
            size: { cpu_cores: 1, memory_gib: 4 },
            idle_timeout_minutes: 0
          }),
          201
        )
        // Two, one of them `default`.
        expect(yield* clusterOf("?organization=fallback")).toEqual({
          id: only!.id,
          name: "default"
        })
        expect(yield* clusterOf("?organization=fallback&cluster=second")).toEqual({
          id: second.id,
          name: "second"
        })

        // Two, neither `default`: the 400 names both.
        const renamed = yield* send(
          "PATCH",
          `/v1/clusters/${only!.id}?organization=fallback`,
          token,
          {
            name: "primary"
          }
        )
        expect(renamed.status, renamed.text).toBe(200)
        const ambiguous = refused(
          yield* send("GET", "/v1/databases?organization=fallback", token),
          400,
          "bad_request"
        )
        expect(ambiguous.message).toContain("cluster")
        expect(ambiguous.hint).toContain("primary")
        expect(ambiguous.hint).toContain("second")
        expect(yield* clusterOf("?organization=fallback&cluster=primary")).toEqual({
          id: only!.id,
          name: "primary"
        })
      })
  )
})
