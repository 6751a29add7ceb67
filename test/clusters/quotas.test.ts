/**
 * How many organizations a user may create (`SLUICE_MAX_ORGANIZATIONS_PER_USER`) and how
 * many clusters an organization may have (`SLUICE_MAX_CLUSTERS_PER_ORGANIZATION`): past
 * the limit a 403 naming the setting, also when the creates race; a deletion frees a place.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { TestServer, freshDataDir } from "../support/server.js"
import type { Reply } from "../support/server.js"
import { adminEnv, adminSession, expectError, request } from "./support.js"

const env = {
  ...adminEnv,
  SLUICE_MAX_ORGANIZATIONS_PER_USER: "1",
  SLUICE_MAX_CLUSTERS_PER_ORGANIZATION: "2"
}

const Named = Schema.Struct({ name: Schema.String })
const Identified = Schema.Struct({ id: Schema.String })

const statuses = (replies: ReadonlyArray<Reply>) => replies.map((r) => r.status).sort()

/** The first reply with `status`. */
const withStatus = (replies: ReadonlyArray<Reply>, status: number): Reply => {
  const found = replies.find((r) => r.status === status)
  if (found === undefined) throw new Error(`no ${status} among ${statuses(replies).join(", ")}`)
  return found
}

layer(TestServer.layer(freshDataDir(), env), { excludeTestServices: true, timeout: 180_000 })(
  "quotas",
  (it) => {
    it.effect("a user creates organizations up to the limit, racing or not", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const create = (name: string) =>
          request("POST", "/v1/organizations", token, { organization_name: name })
        const raced = yield* Effect.all([create("one"), create("two"), create("three")], {
          concurrency: "unbounded"
        })
        expect(statuses(raced)).toEqual([201, 403, 403])
        const refused = expectError(withStatus(raced, 403), 403, "forbidden")
        expect(refused.message).toContain("1 organizations")
        expect(refused.hint).toContain("SLUICE_MAX_ORGANIZATIONS_PER_USER")
        const made = Schema.decodeUnknownSync(Named)(withStatus(raced, 201).json)
        expect((yield* request("DELETE", `/v1/organizations/${made.name}`, token)).status).toBe(200)
        expect((yield* create("again")).status).toBe(201)
        expectError(yield* create("more"), 403, "forbidden")
      })
    )

    it.effect("an organization has clusters up to the limit, racing or not", () =>
      Effect.gen(function* () {
        const token = yield* adminSession
        const create = (name: string) =>
          request("POST", "/v1/clusters?organization=default", token, {
            name,
            replicas: 1,
            size: { cpu_cores: 1, memory_gib: 4 }
          })
        // `default` is the first of two.
        const raced = yield* Effect.all([create("c1"), create("c2"), create("c3")], {
          concurrency: "unbounded"
        })
        expect(statuses(raced)).toEqual([201, 403, 403])
        const refused = expectError(withStatus(raced, 403), 403, "forbidden")
        expect(refused.message).toContain("2 clusters")
        expect(refused.hint).toContain("SLUICE_MAX_CLUSTERS_PER_ORGANIZATION")
        const made = Schema.decodeUnknownSync(Identified)(withStatus(raced, 201).json)
        const deleted = yield* request(
          "DELETE",
          `/v1/clusters/${made.id}?organization=default`,
          token
        )
        expect(deleted.status).toBe(200)
        expect((yield* create("c4")).status).toBe(201)
      })
    )
  }
)
