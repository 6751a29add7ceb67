/**
 * Customer-owned storage given at creation is kept and shown, never dropped: `s3_storage`
 * as `rtree` 0.6.5 sends it (`--s3-*` flags) and the spec's `byo_s3` on
 * `POST /v1/clusters`, `s3_storage` on `POST /v1/databases`. Each answer, get and list
 * shows where data and backups go, never the role or an external id; what cannot be
 * honoured is a 400 naming the field, with nothing created.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { freshDataDir, TestServer } from "../support/server.js"
import { adminEnv, adminSession, expectError, request } from "./support.js"

// `rtree cluster create … --s3-data-bucket customer-data --s3-data-path rawtree/data
// --s3-backups-bucket customer-backups --s3-backups-path rawtree/backups --s3-role-arn …
// --s3-external-id rawtree-example`, as the CLI's own tests record its body.
const rtreeStorage = {
  data: { bucket: "customer-data", path: "rawtree/data" },
  backups: { bucket: "customer-backups", path: "rawtree/backups" },
  role_arn: "arn:aws:iam::123456789012:role/RawTreeS3Access",
  external_id: "rawtree-example"
}
const size = { cpu_cores: 1, memory_gib: 4 }
const rtreeCreate = (name: string, extra: Record<string, unknown>) => ({
  name,
  replicas: 1,
  size,
  autoscaling: { min_size: size, max_size: size },
  ...extra
})
const shown = {
  data: { bucket: "customer-data", path: "rawtree/data" },
  backups: { bucket: "customer-backups", path: "rawtree/backups" }
}

type Listed = { clusters: Array<{ name: string; s3_storage: unknown }> }
const storageByName = (reply: { json: unknown }) =>
  Object.fromEntries((reply.json as Listed).clusters.map((c) => [c.name, c.s3_storage]))

layer(TestServer.layer(freshDataDir("s3-storage"), adminEnv), {
  excludeTestServices: true,
  timeout: 120_000
})("customer-owned storage on clusters and databases", (it) => {
  it.effect("rtree's s3_storage and the spec's byo_s3: echoed, got and listed", () =>
    Effect.gen(function* () {
      const token = yield* adminSession
      const viaRtree = yield* request(
        "POST",
        "/v1/clusters?organization=default",
        token,
        rtreeCreate("production", { s3_storage: rtreeStorage })
      )
      expect(viaRtree.status, viaRtree.text).toBe(201)
      expect((viaRtree.json as { s3_storage: unknown }).s3_storage).toEqual(shown)
      const viaSpec = yield* request(
        "POST",
        "/v1/clusters?organization=default",
        token,
        rtreeCreate("spec", {
          byo_s3: { ...rtreeStorage, data: { bucket: "spec-data", path: "" } }
        })
      )
      expect(viaSpec.status, viaSpec.text).toBe(201)
      const id = (viaRtree.json as { id: string }).id
      const got = yield* request("GET", `/v1/clusters/${id}?organization=default`, token)
      expect((got.json as { s3_storage: unknown }).s3_storage).toEqual(shown)
      const listed = yield* request("GET", "/v1/clusters?organization=default", token)
      expect(storageByName(listed)).toEqual({
        default: null,
        production: shown,
        spec: { ...shown, data: { bucket: "spec-data", path: "" } }
      })
      expect(listed.text).not.toContain("role_arn")
      expect(listed.text).not.toContain("rawtree-example")
    })
  )

  it.effect("what cannot be honoured is a 400 naming the field; nothing is created", () =>
    Effect.gen(function* () {
      const token = yield* adminSession
      const access = yield* request(
        "POST",
        "/v1/clusters?organization=default",
        token,
        rtreeCreate("with-access", {
          database_s3_access: {
            external_id: "rawtree-example",
            database_bucket_tag: "customer-buckets"
          }
        })
      )
      expect(expectError(access, 400, "bad_request").message).toContain("database_s3_access")
      const twoStorages = yield* request(
        "POST",
        "/v1/clusters?organization=default",
        token,
        rtreeCreate("two-storages", {
          s3_storage: rtreeStorage,
          byo_s3: { ...rtreeStorage, role_arn: "arn:aws:iam::123456789012:role/Other" }
        })
      )
      expect(expectError(twoStorages, 400, "bad_request").message).toBe(
        "byo_s3 and s3_storage describe different storage."
      )
      const listed = yield* request("GET", "/v1/clusters?organization=default", token)
      expect(Object.keys(storageByName(listed))).not.toContain("with-access")
      expect(Object.keys(storageByName(listed))).not.toContain("two-storages")
    })
  )

  it.effect("rtree database create --s3-*: kept on the database, echoed and listed", () =>
    Effect.gen(function* () {
      const token = yield* adminSession
      const storage = {
        ...rtreeStorage,
        data: { bucket: "customer-data", path: "events/" },
        backups: { bucket: "customer-backups", path: "snapshots/" }
      }
      const created = yield* request(
        "POST",
        "/v1/databases?organization=default&cluster=default",
        token,
        { name: "analytics", s3_storage: storage }
      )
      expect(created.status, created.text).toBe(201)
      const expected = { data: storage.data, backups: storage.backups }
      expect((created.json as { database: unknown }).database).toEqual({
        name: "analytics",
        s3_storage: expected
      })
      const listed = yield* request(
        "GET",
        "/v1/databases?organization=default&cluster=default",
        token
      )
      expect((listed.json as { databases: unknown }).databases).toEqual([
        { name: "analytics", s3_storage: expected },
        { name: "default", s3_storage: null }
      ])
      expect(listed.text).not.toContain("role_arn")
    })
  )
})
