/**
 * The response shapes existing clients (SDKs, a CLI, an MCP server) read, sent as they
 * send them: plain fetch with `x-service-client: cli`. Every field existing clients read for
 * keys, databases and tables and cluster objects is asserted with the value
 * the spec and the data created here call for; the cluster fallback of a user credential
 * that names no cluster too.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { eventually } from "../support/eventually.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import type { Reply } from "../support/server.js"
import * as F from "../otlp/fixtures.js"

const ADMIN = "shapes-admin@example.com"
const PASSWORD = "shapes admin password"
const env = { SLUICE_ADMIN_EMAIL: ADMIN, SLUICE_ADMIN_PASSWORD: PASSWORD }

const CLI = { "x-service-client": "cli", "x-service-client-version": "2.3.0" }
const GIB = 1024 ** 3
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** A timestamp with a UTC offset, date and time separated by a space. */
const CLUSTER_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)? ?(Z|[+-]\d{2}(:?\d{2})?)$/

type Json = Record<string, unknown>

const send = (
  method: string,
  path: string,
  token: string | undefined,
  options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}
) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, path, {
      ...(token === undefined ? {} : { token }),
      ...(options.body === undefined ? {} : { body: options.body }),
      headers: { ...CLI, ...options.headers }
    })
  )

const jsonOf = (reply: Reply, status = 200): Json => {
  expect(reply.status, reply.text).toBe(status)
  expect(reply.headers.get("content-type")).toMatch(/^application\/json/)
  return bodyOf(Schema.Record({ key: Schema.String, value: Schema.Unknown }), reply)
}

const admin = Effect.map(TestServer, adminKeyOf)

const session = Effect.map(
  send("POST", "/v1/auth/login", undefined, { body: { email: ADMIN, password: PASSWORD } }),
  (reply) => (jsonOf(reply) as { token: string }).token
)

/** The id of the first-start cluster `default`, from the cluster listing. */
const defaultClusterId = Effect.gen(function* () {
  const listed = jsonOf(yield* send("GET", "/v1/clusters?organization=default", yield* session))
  const found = (listed.clusters as ReadonlyArray<Json>).find((c) => c.name === "default")
  return String(found?.id)
})

/** A time within [before, after] (ISO strings from the server's clock and ours). */
const between = (before: number, after: number) =>
  expect.toSatisfy(
    (value: unknown) =>
      typeof value === "string" && Date.parse(value) >= before - 1000 && Date.parse(value) <= after
  )

const masked = (token: string) => `rt_***${token.slice(-4)}`

/** Selecting every listed column answers, with `rows` rows: describe names real columns. */
const expectQueryable = (
  table: string,
  columns: ReadonlyArray<{ readonly name: string }>,
  rows: number
) =>
  Effect.gen(function* () {
    const names = columns.map((c) => `\`${c.name}\``).join(", ")
    const reply = yield* send("POST", "/v1/query", yield* admin, {
      body: { sql: `SELECT ${names} FROM ${table}` }
    })
    expect((jsonOf(reply).data as ReadonlyArray<unknown>).length).toBe(rows)
  })

layer(TestServer.layer(freshDataDir("client-shapes"), env), {
  excludeTestServices: true,
  timeout: 180_000
})("response shapes existing clients read", (it) => {
  it.effect("POST /v1/databases answers name, database and organization", () =>
    Effect.gen(function* () {
      const reply = yield* send("POST", "/v1/databases", yield* admin, { body: { name: "shapes" } })
      expect(jsonOf(reply, 201)).toEqual({
        name: "shapes",
        database: { name: "shapes", s3_storage: null },
        organization: { name: "default" }
      })
    })
  )

  it.effect("GET /v1/keys: masked tokens, the selected database and its alias project", () =>
    Effect.gen(function* () {
      const key = yield* admin
      const clusterId = yield* defaultClusterId
      expect(clusterId).toMatch(UUID)
      const where = {
        organization: { name: "default" },
        cluster: { id: clusterId, name: "default" }
      }

      const listed = yield* send("GET", "/v1/keys", key)
      expect(jsonOf(listed)).toEqual({
        keys: [
          {
            id: expect.any(String),
            name: expect.any(String),
            permission: "admin",
            token: masked(key),
            hint: masked(key),
            default_database: "default",
            created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
            last_used_at: expect.toSatisfy((v: unknown) => v === null || typeof v === "string")
          }
        ],
        // The bootstrap key's stored default.
        database: { name: "default" },
        project: { name: "default" },
        ...where
      })
      expect(listed.text).not.toContain(key)

      const selected = { database: { name: "shapes" }, project: { name: "shapes" }, ...where }
      const byParam = yield* send("GET", "/v1/keys?database=shapes", key)
      expect(jsonOf(byParam)).toMatchObject(selected)
      const byHeader = yield* send("GET", "/v1/keys", key, {
        headers: { "x-service-database": "shapes" }
      })
      expect(jsonOf(byHeader)).toMatchObject(selected)
    })
  )

  it.effect("POST /v1/keys: 201 with the key at the top level and under key, full token once", () =>
    Effect.gen(function* () {
      const key = yield* admin
      const clusterId = yield* defaultClusterId
      const before = Date.now()
      const reply = yield* send("POST", "/v1/keys?database=shapes", key, {
        body: { name: "cli reader", permission: "read_only" }
      })
      const after = Date.now()
      const created = jsonOf(reply, 201)
      const fields = {
        id: expect.any(String),
        token: expect.stringMatching(/^rt_[A-Za-z0-9_-]{32,}$/),
        name: "cli reader",
        permission: "read_only",
        database: { name: "shapes" },
        organization: { name: "default" },
        cluster: { id: clusterId, name: "default" },
        created_at: between(before, after)
      }
      expect(created).toMatchObject({ ...fields, key: fields })
      const nested = created.key as Json
      for (const field of Object.keys(fields)) expect(nested[field]).toEqual(created[field])
      const token = String(created.token)

      // The full token works, and acts in the database the key was created for.
      const tables = yield* send("GET", "/v1/tables", token)
      expect(jsonOf(tables)).toMatchObject({ database: { name: "shapes" } })

      const listed = yield* send("GET", "/v1/keys", key)
      expect(listed.text).not.toContain(token)
      expect((jsonOf(listed).keys as ReadonlyArray<Json>).find((k) => k.id === created.id)).toEqual(
        {
          id: created.id,
          name: "cli reader",
          permission: "read_only",
          token: masked(token),
          hint: masked(token),
          default_database: "shapes",
          created_at: created.created_at,
          last_used_at: expect.toSatisfy((v: unknown) => v === null || typeof v === "string")
        }
      )

      // With no database asked for, a key's listing names its stored default.
      const shapesAdmin = jsonOf(
        yield* send("POST", "/v1/keys?database=shapes", key, {
          body: { name: "shapes admin", permission: "admin" }
        }),
        201
      )
      const ownListing = yield* send("GET", "/v1/keys", String(shapesAdmin.token))
      expect(jsonOf(ownListing)).toMatchObject({
        database: { name: "shapes" },
        project: { name: "shapes" }
      })
    })
  )

  it.effect(
    "GET /v1/tables and describe of a schemaless table: project, fields at both levels",
    () =>
      Effect.gen(function* () {
        const key = yield* admin
        const before = Date.now()
        const inserted = yield* send("POST", "/v1/tables/visits", key, {
          body: [
            { page: "/", ms: 12, user: { country: "NL" } },
            { page: "/cart", ms: 30, user: { country: "DE" } }
          ]
        })
        const after = Date.now()
        expect(jsonOf(inserted)).toEqual({ inserted: 2 })
        const refs = {
          database: { name: "default" },
          project: { name: "default" },
          organization: { name: "default" }
        }
        const summary = {
          name: "visits",
          created_at: between(before, after),
          total_rows: 2,
          total_bytes: expect.toSatisfy((n: unknown) => Number.isInteger(n) && Number(n) > 0)
        }

        const listed = yield* send("GET", "/v1/tables", key)
        expect(jsonOf(listed)).toEqual({ tables: [summary], ...refs })

        const described = jsonOf(yield* send("GET", "/v1/tables/visits", key))
        const table = {
          ...summary,
          columns: [
            { name: "ms", type: "Nullable(Int64)" },
            { name: "page", type: "Nullable(String)" },
            { name: "user.country", type: "Nullable(String)" }
          ]
        }
        expect(described).toEqual({ ...table, table, ...refs })
        expect(described.table).toEqual(
          Object.fromEntries(Object.keys(table).map((field) => [field, described[field]]))
        )
        yield* expectQueryable("visits", table.columns, 2)
      })
  )

  it.effect("describe of the OTLP app's traces table lists its typed columns", () =>
    Effect.gen(function* () {
      const key = yield* admin
      const installed = yield* send(
        "PUT",
        "/v1/apps/otlp-app?organization=default&cluster=default",
        yield* session
      )
      expect(installed.status, installed.text).toBe(200)
      const exported = yield* send("POST", "/otlp/v1/traces", key, { body: F.traces() })
      expect(exported.status, exported.text).toBe(200)

      const described = jsonOf(yield* send("GET", "/v1/tables/traces", key))
      const map = "Map(LowCardinality(String), String)"
      // The OpenTelemetry Collector ClickHouse exporter's `otel_traces` layout.
      const columns = [
        { name: "Timestamp", type: "DateTime64(9)" },
        { name: "TraceId", type: "String" },
        { name: "SpanId", type: "String" },
        { name: "ParentSpanId", type: "String" },
        { name: "TraceState", type: "String" },
        { name: "SpanName", type: "LowCardinality(String)" },
        { name: "SpanKind", type: "LowCardinality(String)" },
        { name: "ServiceName", type: "LowCardinality(String)" },
        { name: "ResourceAttributes", type: map },
        { name: "ScopeName", type: "String" },
        { name: "ScopeVersion", type: "String" },
        { name: "SpanAttributes", type: map },
        { name: "Duration", type: "UInt64" },
        { name: "StatusCode", type: "LowCardinality(String)" },
        { name: "StatusMessage", type: "String" },
        { name: "Events.Timestamp", type: "Array(DateTime64(9))" },
        { name: "Events.Name", type: "Array(LowCardinality(String))" },
        { name: "Events.Attributes", type: `Array(${map})` },
        { name: "Links.TraceId", type: "Array(String)" },
        { name: "Links.SpanId", type: "Array(String)" },
        { name: "Links.TraceState", type: "Array(String)" },
        { name: "Links.Attributes", type: `Array(${map})` }
      ]
      expect(described).toMatchObject({
        name: "traces",
        total_rows: 1,
        columns,
        table: { name: "traces", total_rows: 1, columns },
        database: { name: "default" },
        project: { name: "default" }
      })
      yield* expectQueryable("traces", columns, 1)
    })
  )

  it.effect("describe of a table an OTLP transform made lists columns a query can name", () =>
    Effect.gen(function* () {
      const key = yield* admin
      const inserted = yield* send("POST", "/v1/tables/spans?transform=otlp-traces", key, {
        body: F.traces()
      })
      expect(jsonOf(inserted)).toEqual({ inserted: 1 })
      const described = jsonOf(yield* send("GET", "/v1/tables/spans", key))
      const columns = described.columns as ReadonlyArray<{ name: string; type: string }>
      expect(columns.length).toBeGreaterThan(0)
      expect(described.table).toMatchObject({ name: "spans", total_rows: 1, columns })
      // Never the schemaless layout's raw storage.
      expect(columns.map((c) => c.name)).not.toContain("__raw_data")
      yield* expectQueryable("spans", columns, 1)
    })
  )

  it.effect("cluster objects carry shared: false; a user naming no cluster gets `default`", () =>
    Effect.gen(function* () {
      const user = yield* session
      const defaultId = yield* defaultClusterId
      const org = "?organization=default"
      const clusterOf = (reply: Reply, status = 200) => jsonOf(reply, status)
      // Where a data request of this user acts, seen in the database listing's cluster.
      const databasesCluster = (query: string) => send("GET", `/v1/databases${query}`, user)

      // One cluster: it is the one.
      expect(jsonOf(yield* databasesCluster(org)).cluster).toEqual({
        id: defaultId,
        name: "default"
      })

      const created = clusterOf(
        yield* send("POST", `/v1/clusters${org}`, user, {
          body: {
            name: "second",
            replicas: 1,
            size: { cpu_cores: 1, memory_gib: 4 },
            idle_timeout_minutes: 0
          }
        }),
        201
      )
      expect(created).toMatchObject({ name: "second", shared: false })
      const id = String(created.id)
      const get = Effect.map(send("GET", `/v1/clusters/${id}${org}`, user), (r) => clusterOf(r))
      const ready = yield* eventually(
        "the new cluster to be ready",
        Effect.map(get, (c) => ((c.status as Json).phase === "ready" ? c : undefined)),
        { attempts: 600, pauseMs: 100 }
      )
      const resources = {
        shards: 1,
        replicas: 1,
        cpu_cores_per_replica: 1,
        memory_bytes_per_replica: 4 * GIB,
        minimum_size: { cpu_cores: 1, memory_bytes: 4 * GIB },
        maximum_size: { cpu_cores: 16, memory_bytes: 64 * GIB }
      }
      expect(ready).toEqual({
        id: expect.stringMatching(UUID),
        name: "second",
        created_at: expect.stringMatching(CLUSTER_TIME),
        status: { phase: "ready", ready: true, message: null },
        resources,
        can_pause: true,
        can_resume: false,
        idle_timeout_minutes: 0,
        shared: false,
        s3_storage: null
      })
      const listed = jsonOf(yield* send("GET", `/v1/clusters${org}`, user))
      expect(listed).toEqual({
        organization: { name: "default", external_id: expect.stringMatching(/^sluice-/) },
        clusters: [
          expect.objectContaining({ id: defaultId, name: "default", shared: false }),
          ready
        ]
      })

      // Two clusters: the one named `default`, with or without the organization named.
      expect(jsonOf(yield* databasesCluster(org)).cluster).toEqual({
        id: defaultId,
        name: "default"
      })
      expect(jsonOf(yield* databasesCluster("")).cluster).toEqual({
        id: defaultId,
        name: "default"
      })

      const stopping = clusterOf(yield* send("POST", `/v1/clusters/${id}/stop${org}`, user))
      expect(stopping).toMatchObject({
        status: { phase: "pausing", ready: false },
        can_pause: false,
        can_resume: false,
        shared: false
      })
      yield* eventually(
        "the cluster to be paused",
        Effect.map(get, (c) => ((c.status as Json).phase === "paused" ? c : undefined)),
        { attempts: 600, pauseMs: 100 }
      )
      const resuming = clusterOf(yield* send("POST", `/v1/clusters/${id}/resume${org}`, user))
      expect(resuming).toMatchObject({ status: { phase: "resuming" }, shared: false })
      yield* eventually(
        "the cluster to be ready again",
        Effect.map(get, (c) => ((c.status as Json).phase === "ready" ? c : undefined)),
        { attempts: 600, pauseMs: 100 }
      )

      // No cluster named `default` among several: a 400 naming them to choose from.
      const renamed = clusterOf(
        yield* send("PATCH", `/v1/clusters/${defaultId}${org}`, user, { body: { name: "primary" } })
      )
      expect(renamed).toMatchObject({ id: defaultId, name: "primary", shared: false })
      const ambiguous = yield* databasesCluster(org)
      expect(ambiguous.status, ambiguous.text).toBe(400)
      expect(ambiguous.json).toMatchObject({
        error: "bad_request",
        message: expect.stringContaining("cluster"),
        hint: expect.stringMatching(/primary.*second|second.*primary/)
      })
      expect(jsonOf(yield* databasesCluster(`${org}&cluster=second`)).cluster).toEqual({
        id,
        name: "second"
      })
      const back = yield* send("PATCH", `/v1/clusters/${defaultId}${org}`, user, {
        body: { name: "default" }
      })
      expect(clusterOf(back)).toMatchObject({ name: "default", shared: false })

      const deleted = yield* send("DELETE", `/v1/clusters/${id}${org}`, user)
      expect(jsonOf(deleted)).toEqual({ deleted: true })
    })
  )
})
