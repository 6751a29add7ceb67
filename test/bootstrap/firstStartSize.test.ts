/**
 * The first start's cluster takes its size from the size catalog: 2 CPU / 8 GiB when it
 * is offered, else the largest below it, else the smallest; its bounds are the catalog's.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Cluster } from "../../domain/api/ClusterModels.js"
import { firstStartSize, makeCatalog } from "../../src/clusters/SizeCatalog.js"
import { adminEnv, adminSession, request } from "../clusters/support.js"
import { TestServer, freshDataDir } from "../support/server.js"

const GIB = 1024 ** 3
const Listed = Schema.Struct({ clusters: Schema.Array(Cluster) })

layer(TestServer.layer(freshDataDir(), { ...adminEnv, SLUICE_CLUSTER_SIZES: "1:2,4:16" }), {
  excludeTestServices: true,
  timeout: 120_000
})("first start with a catalog without 2 CPU / 8 GiB", (it) => {
  it.effect("the default cluster has a size of the catalog and its bounds", () =>
    Effect.gen(function* () {
      const token = yield* adminSession
      const reply = yield* request("GET", "/v1/clusters?organization=default", token)
      const [cluster] = Schema.decodeUnknownSync(Listed)(reply.json).clusters
      expect(cluster?.resources).toMatchObject({
        cpu_cores_per_replica: 1,
        memory_bytes_per_replica: 2 * GIB,
        minimum_size: { cpu_cores: 1, memory_bytes: 2 * GIB },
        maximum_size: { cpu_cores: 4, memory_bytes: 16 * GIB }
      })
    })
  )
})

describe("firstStartSize", () => {
  const sizeFor = (sizes: string) => {
    const { cpu_cores, memory_gib } = firstStartSize(makeCatalog({ sizes, maxReplicas: 1 }))
    return [cpu_cores, memory_gib]
  }
  it("is 2 CPU / 8 GiB in the default catalog", () => {
    expect(sizeFor("1:4,2:8,4:16,8:32,16:64")).toEqual([2, 8])
  })
  it("is the largest size within 2 CPU / 8 GiB, else the smallest", () => {
    expect(sizeFor("1:2,1:4,2:16,4:16")).toEqual([1, 4])
    expect(sizeFor("4:16,8:32")).toEqual([4, 16])
  })
})
