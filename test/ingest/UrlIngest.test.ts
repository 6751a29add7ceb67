/**
 * URL ingest end to end against the real engine: each accepted format and compression
 * lands as schemaless rows, the NDJSON progress stream, and the refusals. Most cases
 * call `UrlIngest` through the tables endpoint's adapter (`urlInsert`) with a request
 * like the one the endpoint receives; one goes through `POST /v1/tables/{t}?url=`.
 */
import { HttpServerRequest } from "@effect/platform"
import type { HttpServerResponse } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import { Chunk, ConfigProvider, Context, Effect, Either, Layer, Stream, Schema } from "effect"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { gzipSync } from "node:zlib"
import { ClusterScope } from "../../domain/Authorization.js"
import { Engines, EngineQuery } from "../../domain/Engine.js"
import { ApiKeyCaller } from "../../domain/Identity.js"
import { ApiKeyId, ClusterId, DatabaseName, OrganizationId, TableName } from "../../domain/Ids.js"
import { UrlIngest } from "../../domain/UrlIngest.js"
import { SluiceConfig } from "../../src/config/SluiceConfig.js"
import { UrlIngestLive } from "../../src/ingest/UrlIngestLive.js"
import { urlInsert } from "../../src/ingest/http/UrlInsert.js"
import { TestServer, adminKeyOf, call, freshDataDir, bodyOf } from "../support/server.js"
import { sql } from "../tables/helpers.js"
import { ClusterRef } from "../../domain/api/Scope.js"

const RECORDS = [
  { id: 1, name: "alpha", at: "2024-05-01T10:00:00Z", big: "18446744073709551615" },
  { id: 2, name: "beta, gamma", at: "2024-05-02T11:30:00Z", big: "7" }
]
const NDJSON = RECORDS.map((r) => JSON.stringify(r)).join("\n") + "\n"
const CSV = 'id,name,at\n1,alpha,2024-05-01T10:00:00Z\n2,"beta, gamma",2024-05-02T11:30:00Z\n'
const TSV = "id\tname\tat\n1\talpha\t2024-05-01T10:00:00Z\n2\tbeta, gamma\t2024-05-02T11:30:00Z\n"

const files = new Map<string, { body: Uint8Array | string; headers?: Record<string, string> }>()
const fileServer = Layer.scoped(
  Context.GenericTag<{ url: string }>("FileServer"),
  Effect.acquireRelease(
    Effect.promise(
      () =>
        new Promise<http.Server>((resolve) => {
          const server = http.createServer((req, res) => {
            if (req.url === "/slow.ndjson") {
              // Ten records over ~2.5 s, so the progress stream has something to say.
              res.writeHead(200, { "content-type": "application/x-ndjson" })
              let sent = 0
              const drip = setInterval(() => {
                res.write(JSON.stringify({ n: ++sent }) + "\n")
                if (sent === 10) {
                  clearInterval(drip)
                  res.end()
                }
              }, 250)
              return
            }
            const file = files.get(new URL(req.url ?? "/", "http://x").pathname)
            if (file === undefined) return void res.writeHead(404).end()
            res.writeHead(200, file.headers ?? {}).end(file.body)
          })
          server.listen(0, "127.0.0.1", () => resolve(server))
        })
    ),
    (server) => Effect.promise(() => new Promise((r) => server.close(r)))
  ).pipe(Effect.map((s) => ({ url: `http://127.0.0.1:${(s.address() as AddressInfo).port}` })))
)
const FileServer = Context.GenericTag<{ url: string }>("FileServer")

const env = { SLUICE_URL_INGEST_ALLOW: "127.0.0.1", SLUICE_URL_INGEST_MAX_BYTES: "100000" }

// The service as the server builds it, from the same settings, over the server's writer.
const urlIngestOf = (server: TestServer["Type"]) =>
  UrlIngestLive.pipe(
    Layer.provide(SluiceConfig.layer),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))),
    Layer.provide(Layer.succeedContext(server.context))
  )

const clusterIdOf = Effect.gen(function* () {
  const server = yield* TestServer
  const list = yield* call(server, "GET", "/v1/databases", { token: adminKeyOf(server) })
  return ClusterId.make(bodyOf(Schema.Struct({ cluster: ClusterRef }), list).cluster.id)
}).pipe(Effect.orDie)

const engineOf = Effect.gen(function* () {
  const server = yield* TestServer
  return yield* Context.get(server.context, Engines).forCluster(yield* clusterIdOf)
}).pipe(Effect.orDie)

const bodyText = (response: HttpServerResponse.HttpServerResponse) =>
  Effect.gen(function* () {
    const body = response.body
    if (body._tag === "Uint8Array") return new TextDecoder().decode(body.body)
    if (body._tag !== "Stream") return ""
    const chunks = yield* Stream.runCollect(body.stream).pipe(Effect.orDie)
    return Buffer.concat(Chunk.toArray(chunks)).toString()
  })

/** Runs a URL insert into `default.<table>` the way the tables endpoint would. */
const ingest = (
  table: string,
  path: string,
  headers: Record<string, string> = {},
  transform?: string,
  token?: string
) =>
  Effect.gen(function* () {
    const server = yield* TestServer
    const base = yield* FileServer
    const clusterId = yield* clusterIdOf
    const service = yield* UrlIngest.pipe(Effect.provide(urlIngestOf(server)))
    const request = HttpServerRequest.fromWeb(
      new Request(`${server.url}/v1/tables/${table}`, { method: "POST", headers })
    )
    const url = path.startsWith("http") ? path : base.url + path
    const database = DatabaseName.make("default")
    const scope = new ClusterScope({
      organizationId: OrganizationId.make(crypto.randomUUID()),
      organizationName: "default",
      clusterId,
      clusterName: "default",
      defaultDatabase: database,
      caller: new ApiKeyCaller({
        keyId: ApiKeyId.make(crypto.randomUUID()),
        keyName: "test",
        permission: "admin",
        organizationId: OrganizationId.make(crypto.randomUUID()),
        organizationName: "default",
        clusterId,
        clusterName: "default",
        defaultDatabase: database
      })
    })
    return yield* urlInsert(service, request, {
      scope,
      database,
      table: TableName.make(table),
      url,
      transform,
      token
    }).pipe(Effect.flatMap(bodyText), Effect.either)
  })

const inserted = (table: string, path: string, headers: Record<string, string> = {}) =>
  Effect.map(ingest(table, path, headers), (result) => {
    expect(Either.isRight(result), JSON.stringify(result)).toBe(true)
    return Either.getOrThrow(result)
  })

const parquetOf = Effect.gen(function* () {
  const engine = yield* engineOf
  const bytes = yield* Stream.runCollect(
    engine.query(
      new EngineQuery({
        sql: "SELECT number + 1 AS id, concat('row', toString(number)) AS name FROM numbers(3)",
        format: "Parquet",
        queryId: crypto.randomUUID()
      })
    )
  ).pipe(Effect.orDie)
  return Buffer.concat(Chunk.toArray(bytes))
})

const server = Layer.merge(TestServer.layer(freshDataDir(), env), fileServer)

layer(server, { excludeTestServices: true, timeout: 120_000 })("URL ingest", (it) => {
  it.effect("JSON array, NDJSON, gzip by extension and by content-encoding", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      files.set("/data.json", { body: JSON.stringify(RECORDS) })
      files.set("/data.ndjson", { body: NDJSON })
      files.set("/data.ndjson.gz", { body: gzipSync(NDJSON) })
      files.set("/feed", {
        body: gzipSync(NDJSON),
        headers: { "content-type": "application/x-ndjson", "content-encoding": "gzip" }
      })
      for (const path of ["/data.json", "/data.ndjson", "/data.ndjson.gz", "/feed"]) {
        expect(JSON.parse(yield* inserted("fromjson", path))).toEqual({ inserted: 2 })
      }
      const rows = yield* sql(
        s,
        "SELECT name, toString(big) AS big FROM fromjson ORDER BY id, name"
      )
      expect(rows).toHaveLength(8)
      expect(rows[0]).toMatchObject({ name: "alpha" })
    })
  )

  it.effect("CSV and TSV with header, and Parquet, become schemaless rows", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      files.set("/data.csv", { body: CSV })
      files.set("/data.tsv.gz", { body: gzipSync(TSV) })
      files.set("/export", {
        body: yield* parquetOf,
        headers: { "content-type": "application/vnd.apache.parquet" }
      })
      expect(JSON.parse(yield* inserted("fromcsv", "/data.csv"))).toEqual({ inserted: 2 })
      expect(JSON.parse(yield* inserted("fromcsv", "/data.tsv.gz"))).toEqual({ inserted: 2 })
      expect(JSON.parse(yield* inserted("fromparquet", "/export"))).toEqual({ inserted: 3 })
      const csv = yield* sql(s, "SELECT id, name FROM fromcsv ORDER BY id, name")
      expect(csv.map((r) => r.name)).toEqual(["alpha", "alpha", "beta, gamma", "beta, gamma"])
      const types = yield* sql(
        s,
        "SELECT toTypeName(at) AS at, toTypeName(id) AS id FROM fromcsv LIMIT 1"
      )
      expect(types[0]).toEqual({
        at: expect.stringMatching(/DateTime/),
        id: expect.stringMatching(/Int64/)
      })
      const sum = yield* sql(s, "SELECT sum(id) AS total FROM fromparquet")
      expect(Number(sum[0]?.total)).toBe(6)
    })
  )

  it.effect("the same insert token and file insert once", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      files.set("/once.ndjson", { body: NDJSON })
      for (let i = 0; i < 2; i++) {
        const result = yield* ingest("once", "/once.ndjson", {}, undefined, "batch-1")
        expect(Either.getOrThrow(result)).toBe(JSON.stringify({ inserted: 2 }))
      }
      const rows = yield* sql(s, "SELECT count() AS c FROM once")
      expect(Number(rows[0]?.c)).toBe(2)
    })
  )

  it.effect("with accept: application/x-ndjson, streams started and done", () =>
    Effect.gen(function* () {
      files.set("/progress.ndjson", { body: NDJSON })
      const text = yield* inserted("progress", "/progress.ndjson", {
        accept: "application/x-ndjson"
      })
      const events = text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      expect(events[0]).toMatchObject({ type: "started", query_id: expect.any(String) })
      expect(events.at(-1)).toEqual(expect.objectContaining({ type: "done", written_rows: 2 }))
      const slow = yield* inserted("progress", "/slow.ndjson", { accept: "application/x-ndjson" })
      const slowEvents = slow
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const progress = slowEvents.filter((e) => e.type === "progress")
      expect(progress.length).toBeGreaterThan(0)
      expect(progress.at(-1)).toMatchObject({
        written_rows: expect.any(Number),
        read_bytes: expect.any(Number)
      })
      expect(Number(progress.at(-1)?.written_rows)).toBeGreaterThan(0)
      expect(slowEvents.at(-1)).toMatchObject({ type: "done", written_rows: 10 })
      files.set("/broken.ndjson", { body: '{"a":1}\n{"a":\n' })
      const broken = yield* inserted("progress", "/broken.ndjson", {
        accept: "application/x-ndjson"
      })
      const last = JSON.parse(broken.trim().split("\n").at(-1)!) as Record<string, unknown>
      expect(last).toMatchObject({
        type: "error",
        error: "bad_request",
        message: expect.any(String)
      })
    })
  )

  it.effect("over HTTP: POST /v1/tables/{t}?url= inserts, streams progress, refuses", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const base = yield* FileServer
      const token = adminKeyOf(s)
      files.set("/http.ndjson", { body: NDJSON })
      const url = encodeURIComponent(`${base.url}/http.ndjson`)
      const plain = yield* call(s, "POST", `/v1/tables/viahttp?url=${url}`, { token })
      expect(plain.status, plain.text).toBe(200)
      expect(plain.json).toEqual({ inserted: 2 })
      const streamed = yield* call(s, "POST", `/v1/tables/viahttp?url=${url}`, {
        token,
        headers: { accept: "application/x-ndjson" }
      })
      expect(streamed.headers.get("content-type")).toContain("application/x-ndjson")
      expect(streamed.text).toContain('"type":"done"')
      const loopback = encodeURIComponent("http://[::1]:9/x.json")
      const refused = yield* call(s, "POST", `/v1/tables/viahttp?url=${loopback}`, { token })
      expect(refused.status, refused.text).toBe(403)
      expect(refused.json).toMatchObject({
        error: "forbidden",
        hint: expect.stringContaining("SLUICE_URL_INGEST_ALLOW")
      })
      const withTransform = yield* call(
        s,
        "POST",
        `/v1/tables/viahttp?url=${url}&transform=otlp-logs`,
        { token }
      )
      expect(withTransform.status).toBe(400)
      const rows = yield* sql(s, "SELECT count() AS c FROM viahttp")
      expect(Number(rows[0]?.c)).toBe(4)
    })
  )

  it.effect("the started line's query_id cancels a URL load; nothing of it is inserted", () =>
    Effect.gen(function* () {
      const s = yield* TestServer
      const base = yield* FileServer
      const token = adminKeyOf(s)
      const url = encodeURIComponent(`${base.url}/slow.ndjson`)
      const events = yield* Effect.promise(async () => {
        const reply = await fetch(`${s.url}/v1/tables/cancelled?url=${url}`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, accept: "application/x-ndjson" }
        })
        const reader = reply.body!.getReader()
        const decoder = new TextDecoder()
        let text = ""
        let cancel: { status: number; body: unknown } | undefined
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          text += decoder.decode(value, { stream: true })
          const first = text.split("\n")[0]!
          if (cancel === undefined && text.includes("\n")) {
            const started = JSON.parse(first) as { type: string; query_id: string }
            expect(started.type).toBe("started")
            // Another scope may not cancel it: the same id from the wrong database is a 404.
            const wrong = await fetch(`${s.url}/v1/query/cancel?database=elsewhere`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body: JSON.stringify({ query_id: started.query_id })
            })
            expect([403, 404]).toContain(wrong.status)
            const reply = await fetch(`${s.url}/v1/query/cancel`, {
              method: "POST",
              headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
              body: JSON.stringify({ query_id: started.query_id })
            })
            cancel = { status: reply.status, body: await reply.json() }
          }
        }
        return {
          cancel,
          lines: text
            .trim()
            .split("\n")
            .map((l) => JSON.parse(l) as object)
        }
      })
      expect(events.cancel).toEqual({ status: 200, body: { cancelled: true } })
      expect(events.lines.at(-1)).toMatchObject({ type: "error", error: "cancelled" })
      expect(events.lines.some((e) => "type" in e && e.type === "done")).toBe(false)
      // The load never finished, so the table holds none of its rows (it may not exist).
      const count = yield* call(s, "POST", "/v1/query", {
        token,
        body: { sql: "SELECT count() AS c FROM cancelled" }
      })
      if (count.status === 200) {
        expect(count.json).toMatchObject({ data: [{ c: "0" }] })
      } else {
        expect(count.status).toBe(400)
      }
    })
  )

  it.effect("refusals: transform, unknown format, missing file, too large, private address", () =>
    Effect.gen(function* () {
      const failure = (
        result: Either.Either<string, { readonly _tag: string; readonly message: string }>
      ) =>
        Either.isLeft(result) ? { tag: result.left._tag, message: result.left.message } : undefined
      files.set("/notes.txt", { body: "hello", headers: { "content-type": "text/plain" } })
      // Valid records, only too many bytes of them: the size is the one thing wrong.
      files.set("/huge.ndjson", { body: '{"a":1}\n'.repeat(25_000) })
      expect(failure(yield* ingest("t", "/data.ndjson", {}, "otlp-logs"))).toMatchObject({
        tag: "BadRequest",
        message: expect.stringContaining("transform")
      })
      expect(failure(yield* ingest("t", "/notes.txt"))).toMatchObject({
        tag: "BadRequest",
        message: expect.stringContaining("format")
      })
      expect(failure(yield* ingest("t", "/missing.json"))).toMatchObject({
        message: expect.stringContaining("404")
      })
      expect(failure(yield* ingest("t", "/huge.ndjson"))).toMatchObject({ tag: "PayloadTooLarge" })
      expect(failure(yield* ingest("t", "http://[::1]:9/x.json"))).toMatchObject({
        tag: "Forbidden"
      })
      expect(failure(yield* ingest("t", "http://169.254.169.254/latest/x.json"))).toMatchObject({
        tag: "Forbidden"
      })
      files.set("/bad.parquet", { body: "this is not parquet" })
      expect(failure(yield* ingest("t", "/bad.parquet"))).toMatchObject({
        tag: "BadRequest",
        message: expect.stringMatching(/could not be read as parquet/)
      })
      const bad = failure(yield* ingest("t", "/bad.parquet"))
      expect(bad?.message).not.toMatch(/\/tmp|sluice-url-/)
      const s = yield* TestServer
      const tables = yield* sql(
        s,
        "SELECT name FROM system.tables WHERE database = 'default' AND name = 't'"
      )
      expect(tables).toEqual([])
    })
  )
})
