/**
 * Who may do what on the cluster endpoints: members read (list, one, metrics) and change
 * nothing; a cluster API key is refused everywhere but the size catalog; no credential is
 * a 401; an unknown organization or another organization's cluster is a 404 that never
 * gives its name away; malformed ids and metric windows are 400s with hints.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { otherCluster } from "../support/otherCluster.js"
import { TestServer, adminKeyOf, freshDataDir } from "../support/server.js"
import { memberSession, send } from "./securitySupport.js"
import { adminEnv, adminSession, cluster, clientWith, expectError } from "./support.js"

const MEMBER = "cluster-reader@example.com"
const MEMBER_PASSWORD = "a cluster reader's password"

const hourAgo = () => new Date(Date.now() - 3_600_000).toISOString()
const now = () => new Date().toISOString()
const windowOf = (start = hourAgo(), end = now()) =>
  `start_time=${encodeURIComponent(start)}&end_time=${encodeURIComponent(end)}`

const createBody = { name: "forbidden-one", replicas: 1, size: { cpu_cores: 1, memory_gib: 4 } }
const byoS3 = {
  byo_s3: {
    data: { bucket: "b", path: "d" },
    backups: { bucket: "b", path: "k" },
    role_arn: "arn:aws:iam::111122223333:role/r",
    external_id: "x"
  }
}

type Endpoint = readonly [string, string, unknown?]

/** The endpoints that take a cluster id in the path. */
const byId = (id: string, org = "default"): ReadonlyArray<Endpoint> => {
  const q = `organization=${org}`
  return [
    ["GET", `/v1/clusters/${id}?${q}`],
    ["GET", `/v1/clusters/${id}/metrics?${q}&${windowOf()}`],
    ["PATCH", `/v1/clusters/${id}?${q}`, { idle_timeout_minutes: 0 }],
    ["POST", `/v1/clusters/${id}/stop?${q}`],
    ["POST", `/v1/clusters/${id}/resume?${q}`],
    ["DELETE", `/v1/clusters/${id}?${q}`]
  ]
}

/** Every cluster endpoint but sizes: the member reads first, then the changes. */
const endpoints = (id: string, org = "default"): ReadonlyArray<Endpoint> => {
  const q = `organization=${org}`
  const [one, metrics, ...changes] = byId(id, org)
  return [
    ["GET", `/v1/clusters?${q}`],
    one!,
    metrics!,
    ["GET", `/v1/clusters/metrics?${q}&cluster=default&${windowOf()}`],
    ["POST", `/v1/clusters?${q}`, createBody],
    ...changes,
    ["POST", `/v1/clusters/verify-s3-access?${q}`, byoS3]
  ]
}

const ask = (
  token: string | undefined,
  [method, path, body]: readonly [string, string, unknown?]
) => send(token, method, path, body === undefined ? {} : { body })

/** The clusters of `default` as `token` lists them (a 200, else the test fails). */
const clustersSeenBy = (token: string) =>
  Effect.flatMap(clientWith(token), (client) =>
    client.clusters.list({ urlParams: { organization: "default" } })
  )

/** The organization's `default` cluster as the admin sees it. */
const defaultCluster = Effect.gen(function* () {
  const listed = yield* clustersSeenBy(yield* adminSession)
  return listed.clusters.find((c) => c.name === "default")!
})

layer(TestServer.layer(freshDataDir(), adminEnv), { excludeTestServices: true, timeout: 120_000 })(
  "cluster endpoints: who may do what",
  (it) => {
    it.effect("a member reads clusters and metrics but changes nothing (403)", () =>
      Effect.gen(function* () {
        const member = yield* memberSession(MEMBER, MEMBER_PASSWORD)
        const before = yield* defaultCluster
        const [list, one, metrics, byName, ...changes] = endpoints(before.id)

        const listed = yield* ask(member, list!)
        expect(listed.status, listed.text).toBe(200)
        expect(listed.json).toMatchObject({
          organization: { name: "default" },
          clusters: [{ id: before.id, name: "default" }]
        })
        expect(cluster(yield* ask(member, one!))).toMatchObject({
          id: before.id,
          status: { phase: "ready" }
        })
        for (const read of [metrics!, byName!]) {
          const reply = yield* ask(member, read)
          expect(reply.status, reply.text).toBe(200)
          expect(reply.json).toMatchObject({ cluster: { id: before.id, name: "default" } })
        }

        expect(changes.length).toBe(6)
        for (const change of changes) {
          const refused = expectError(yield* ask(member, change), 403, "forbidden")
          expect(refused.message, change[1]).toMatch(/^Only organization admins may /)
        }
        // Nothing happened: same cluster, same phase, no new cluster.
        const after = yield* defaultCluster
        expect(after).toEqual(before)
        const names = yield* clustersSeenBy(member)
        expect(names.clusters.map((c) => c.name)).toEqual(["default"])
      })
    )

    it.effect("a cluster API key is refused on every cluster endpoint; sizes need nothing", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const key = adminKeyOf(server)
        const { id } = yield* defaultCluster
        for (const endpoint of endpoints(id)) {
          const refused = expectError(yield* ask(key, endpoint), 403, "forbidden")
          expect(refused.hint, endpoint[1]).toContain("/v1/auth/login")
        }
        for (const token of [undefined, key]) {
          const sizes = yield* send(token, "GET", "/v1/clusters/sizes")
          expect(sizes.status).toBe(200)
          expect(sizes.json).toMatchObject({ min_number_of_replicas: 1 })
        }
        expect((yield* defaultCluster).status.phase).toBe("ready")
      })
    )

    it.effect("no credential, or a wrong one, is a 401", () =>
      Effect.gen(function* () {
        const { id } = yield* defaultCluster
        for (const endpoint of endpoints(id)) {
          expectError(yield* ask(undefined, endpoint), 401, "unauthorized")
          expectError(yield* ask("not-a-token", endpoint), 401, "unauthorized")
        }
      })
    )

    it.effect("an unknown organization is a 404 for admins and members alike", () =>
      Effect.gen(function* () {
        const admin = yield* adminSession
        const member = yield* memberSession("second-reader@example.com", MEMBER_PASSWORD)
        const { id } = yield* defaultCluster
        for (const token of [admin, member])
          for (const endpoint of endpoints(id, "nowhere")) {
            const missing = expectError(yield* ask(token, endpoint), 404, "not_found")
            expect(missing.message).toBe("Organization 'nowhere' not found.")
          }
      })
    )

    it.effect("another organization's cluster is a 404 like a missing one, never named", () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const admin = yield* adminSession
        const far = yield* otherCluster(server, "faraway-org")
        const theirs = far.cluster.id
        const missing = crypto.randomUUID()
        // The other organization's name and cluster name: neither may come back.
        const secretNames = ["faraway-org"]

        const listed = yield* send(admin, "GET", "/v1/clusters?organization=default")
        expect(JSON.stringify(listed.json)).not.toContain(theirs)
        for (const endpoint of byId(theirs)) {
          const reply = yield* ask(admin, endpoint)
          const error = expectError(reply, 404, "not_found")
          for (const name of secretNames) expect(reply.text).not.toContain(name)
          // Exactly what a cluster that does not exist at all answers.
          const control = yield* ask(admin, [
            endpoint[0],
            endpoint[1].replace(theirs, missing),
            endpoint[2]
          ])
          const expected = expectError(control, 404, "not_found")
          expect(error.message.replace(theirs, missing)).toBe(expected.message)
          expect(error.hint).toBe(expected.hint)
        }
        const byName = yield* send(
          admin,
          "GET",
          `/v1/clusters/metrics?organization=default&cluster=faraway-org&${windowOf()}`
        )
        const error = expectError(byName, 404, "not_found")
        const control = expectError(
          yield* send(
            admin,
            "GET",
            `/v1/clusters/metrics?organization=default&cluster=never-was&${windowOf()}`
          ),
          404,
          "not_found"
        )
        expect(error.message.replace("faraway-org", "never-was")).toBe(control.message)
        expect(error.hint).toBe(control.hint)
        expect(byName.text).not.toContain(theirs)
        // Naming the other organization itself is a 404 too: the admin is no member there.
        expectError(
          yield* send(admin, "GET", `/v1/clusters/${theirs}?organization=faraway-org`),
          404,
          "not_found"
        )
        // And their cluster is untouched by the attempts (still ready, not deleted).
        const theirDatabases = yield* Effect.flatMap(clientWith(far.token), (client) =>
          client.databases.list({ urlParams: {} })
        )
        expect(theirDatabases.cluster.id).toBe(theirs)
      })
    )

    it.effect("a malformed cluster id in the path is a 400", () =>
      Effect.gen(function* () {
        const admin = yield* adminSession
        for (const bad of ["not-a-uuid", "1234", "00000000-0000-0000-0000-00000000000g"]) {
          for (const endpoint of byId(bad)) {
            const reply = yield* ask(admin, endpoint)
            expect(reply.status, `${endpoint[0]} ${endpoint[1]}: ${reply.text}`).toBe(400)
            const error = expectError(reply, 400, "bad_request")
            expect(JSON.stringify(error), endpoint[1]).toMatch(/cluster_id|UUID/i)
          }
        }
      })
    )

    it.effect("bad metric windows and names are 400s whose hint says what to send", () =>
      Effect.gen(function* () {
        const admin = yield* adminSession
        const { id } = yield* defaultCluster
        const paths = (params: string) => [
          `/v1/clusters/${id}/metrics?organization=default&${params}`,
          `/v1/clusters/metrics?organization=default&cluster=default&${params}`
        ]
        const bad = (params: string) =>
          Effect.gen(function* () {
            const replies = []
            for (const path of paths(params)) {
              const reply = yield* send(admin, "GET", path)
              replies.push(expectError(reply, 400, "bad_request"))
            }
            // Both forms answer alike (up to the "now" a retention hint is counted from).
            const masked = replies.map((r) => ({
              ...r,
              hint: r.hint.replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/, "<time>")
            }))
            expect(masked[0]).toEqual(masked[1])
            return replies[0]!
          })

        const backwards = yield* bad(windowOf(now(), hourAgo()))
        expect(backwards.message).toBe("end_time is before start_time.")
        expect(backwards.hint).toContain("start_time <= end_time")

        const old = new Date(Date.now() - 31 * 86_400_000).toISOString()
        const tooOld = yield* bad(windowOf(old, now()))
        expect(tooOld.message).toContain("30-day metrics retention")
        expect(tooOld.hint).toMatch(/^Pass a start_time at or after \d{4}-\d{2}-\d{2}T/)

        for (const malformed of ["yesterday", "1", "2026-13-45T99:00:00Z", ""]) {
          const reply = yield* bad(windowOf(malformed, now()))
          expect(JSON.stringify(reply), malformed).toContain("start_time")
        }
        const endMalformed = yield* bad(windowOf(hourAgo(), "noon"))
        expect(JSON.stringify(endMalformed)).toContain("end_time")
        const missing = yield* bad(`start_time=${encodeURIComponent(hourAgo())}`)
        expect(JSON.stringify(missing)).toContain("end_time")

        const unknown = yield* bad(`${windowOf()}&metrics=max_memory_bytes,disk_bytes`)
        expect(unknown.message).toBe('Unknown metric "disk_bytes".')
        expect(unknown.hint).toBe(
          "Known metrics: total_read_queries, total_write_queries, max_cpu_cores, max_memory_bytes."
        )
        const none = yield* bad(`${windowOf()}&metrics=,`)
        expect(none.hint).toContain("Known metrics:")
      })
    )
  }
)
