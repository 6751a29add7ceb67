/**
 * Saved searches over HTTP: the record and its defaults, who sees and
 * who changes what (two members of one organization, its admin, a user of another
 * organization, an API key), unique names, and the app gate across uninstall/reinstall.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Option } from "effect"
import { OrganizationsRepo } from "../../src/identity/OrganizationsRepo.js"
import { UsersRepo } from "../../src/identity/UsersRepo.js"
import { otherCluster } from "../support/otherCluster.js"
import {
  ADMIN,
  env,
  errorOf,
  listOf,
  login,
  member,
  searchesAt,
  searchOf,
  setApp,
  splCluster
} from "../support/savedSearches.js"
import { adminKeyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ALICE = "alice@example.com"
const BOB = "bob@example.com"
const CAROL = "carol@example.com"
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

layer(TestServer.layer(freshDataDir("saved"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("saved searches", (it) => {
  it.effect("404 naming spl-app until it is installed; then a record with every default", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* member(server, "default", ALICE, "member")
      const at = searchesAt(server, { organization: "default", cluster: "default" }, alice)
      const before = errorOf(yield* at.list(), 404, "not_found")
      expect(before.message).toContain("spl-app")
      expect(before.hint).toContain("PUT /v1/apps/spl-app")
      errorOf(yield* at.create({ name: "early", spl: "error" }), 404, "not_found")

      yield* setApp(server, "default", "default", "PUT")
      const created = searchOf(yield* at.create({ name: "errors", spl: "index=main error" }), 201)
      expect(created).toMatchObject({
        name: "errors",
        spl: "index=main error",
        earliest: null,
        latest: null,
        visualization: "table",
        span_minutes: null,
        keep_results: false,
        database: "default",
        visibility: "private",
        created_by: ALICE
      })
      expect(created.created_at).toMatch(ISO)
      expect(created.updated_at).toBe(created.created_at)
      // GET returns the complete configuration, as created.
      expect(searchOf(yield* at.get(created.id))).toEqual(created)
    })
  )

  it.effect("every property given on create is kept", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      yield* splCluster(server, "default", "full")
      const at = searchesAt(server, { organization: "default", cluster: "full" }, alice)
      const body = {
        name: "5xx by host",
        spl: "index=main status>=500 | stats count by host",
        earliest: "-24h",
        latest: "now",
        visualization: "chart",
        span_minutes: 5,
        keep_results: true,
        database: "more",
        visibility: "shared"
      }
      const created = searchOf(yield* at.create(body), 201)
      expect(created).toMatchObject({ ...body, created_by: ALICE })
      expect(searchOf(yield* at.get(created.id))).toEqual(created)
    })
  )

  it.effect("the database defaults to the selected one: parameter, header, else default", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      yield* splCluster(server, "default", "selected")
      const at = searchesAt(server, { organization: "default", cluster: "selected" }, alice)
      const spl = "error"
      const byParam = searchOf(yield* at.create({ name: "p", spl }, { database: "more" }), 201)
      expect(byParam.database).toBe("more")
      const byHeader = yield* at.create(
        { name: "h", spl },
        { headers: { "x-service-database": "more" } }
      )
      expect(searchOf(byHeader, 201).database).toBe("more")
      // The body names the search's database itself; it wins over the selection.
      const body = yield* at.create({ name: "b", spl, database: "default" }, { database: "more" })
      expect(searchOf(body, 201).database).toBe("default")
      expect(searchOf(yield* at.create({ name: "d", spl }), 201).database).toBe("default")

      const missing = yield* at.create({ name: "m", spl, database: "nowhere" })
      expect(errorOf(missing, 404, "not_found").message).toContain("nowhere")
      errorOf(yield* at.create({ name: "i", spl, database: "1bad-name" }), 400, "bad_request")
      const disagree = yield* at.create(
        { name: "x", spl },
        { database: "more", headers: { "x-service-database": "default" } }
      )
      errorOf(disagree, 400, "bad_request")
      // None of the refused ones was saved.
      const names = listOf(yield* at.list()).searches.map((s) => s.name)
      expect(names).toEqual(["b", "d", "h", "p"])
    })
  )

  it.effect("private is the creator's; shared is the organization's; outsiders see nothing", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      const bob = yield* member(server, "default", BOB, "member")
      yield* splCluster(server, "default", "seen")
      const place = { organization: "default", cluster: "seen" }
      const asAlice = searchesAt(server, place, alice)
      const asBob = searchesAt(server, place, bob)
      const mine = searchOf(yield* asAlice.create({ name: "mine", spl: "a" }), 201)
      const ours = searchOf(
        yield* asAlice.create({ name: "ours", spl: "b", visibility: "shared" }),
        201
      )

      expect(listOf(yield* asAlice.list()).searches.map((s) => s.name)).toEqual(["mine", "ours"])
      expect(listOf(yield* asBob.list())).toEqual({
        searches: [
          {
            id: ours.id,
            name: "ours",
            database: "default",
            visualization: "table",
            visibility: "shared",
            created_by: ALICE,
            created_at: ours.created_at,
            updated_at: ours.updated_at
          }
        ],
        truncated: false
      })
      expect(searchOf(yield* asBob.get(ours.id))).toEqual(ours)
      // Bob cannot tell a private search of Alice's from one that does not exist.
      const hidden = errorOf(yield* asBob.get(mine.id), 404, "not_found")
      const absent = errorOf(yield* asBob.get(crypto.randomUUID()), 404, "not_found")
      expect(hidden.hint).toBe(absent.hint)

      // Carol belongs to another organization only.
      const other = yield* otherCluster(server, "other")
      const ctx = server.context
      const adminUser = yield* Context.get(ctx, UsersRepo).findByEmail(ADMIN)
      yield* Context.get(ctx, OrganizationsRepo).setRole(
        other.organization.id,
        Option.getOrThrow(adminUser).id,
        "admin"
      )
      const carol = yield* member(server, "other", CAROL, "admin")
      const asCarol = searchesAt(server, place, carol)
      errorOf(yield* asCarol.list(), 404, "not_found")
      errorOf(yield* asCarol.get(ours.id), 404, "not_found")
      errorOf(yield* asCarol.remove(ours.id), 404, "not_found")
      // In her own organization's cluster, Alice's shared search is not there either.
      yield* setApp(server, "other", "other", "PUT")
      const carolsOwn = searchesAt(server, { organization: "other", cluster: "other" }, carol)
      expect(listOf(yield* carolsOwn.list())).toEqual({ searches: [], truncated: false })
      errorOf(yield* carolsOwn.get(ours.id), 404, "not_found")

      // A cluster API key is not a user: 403, even the cluster's admin key.
      const keyed = yield* call(
        server,
        "GET",
        "/v1/apps/spl/searches?organization=default&cluster=default",
        { token: adminKeyOf(server) }
      )
      errorOf(keyed, 403, "forbidden")
      const anonymous = yield* call(
        server,
        "GET",
        "/v1/apps/spl/searches?organization=default&cluster=default"
      )
      errorOf(anonymous, 401, "unauthorized")
    })
  )

  it.effect("only the creator updates; other fields stay; names are unique per creator", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      const bob = yield* login(server, BOB)
      yield* splCluster(server, "default", "edits")
      const place = { organization: "default", cluster: "edits" }
      const asAlice = searchesAt(server, place, alice)
      const asBob = searchesAt(server, place, bob)
      const shared = searchOf(
        yield* asAlice.create({
          name: "slow",
          spl: "duration>1000",
          earliest: "-1h",
          visibility: "shared"
        }),
        201
      )
      const secret = searchOf(yield* asAlice.create({ name: "secret", spl: "x" }), 201)

      const updated = searchOf(
        yield* asAlice.update(shared.id, { spl: "duration>2000", visualization: "chart" })
      )
      expect(updated).toEqual({
        ...shared,
        spl: "duration>2000",
        visualization: "chart",
        updated_at: updated.updated_at
      })
      expect(Date.parse(updated.updated_at)).toBeGreaterThanOrEqual(Date.parse(shared.updated_at))
      // null clears a time bound; omitted properties stay.
      const cleared = searchOf(yield* asAlice.update(shared.id, { earliest: null }))
      expect(cleared).toMatchObject({ earliest: null, spl: "duration>2000", name: "slow" })

      // Bob sees the shared one but may not change it; the private one is not his to see.
      const refused = errorOf(
        yield* asBob.update(shared.id, { name: "mine now" }),
        403,
        "forbidden"
      )
      expect(refused.message).toContain("creator")
      errorOf(yield* asBob.update(secret.id, { name: "mine now" }), 404, "not_found")
      expect(searchOf(yield* asAlice.get(shared.id)).name).toBe("slow")

      // Names: unique per creator within a cluster.
      const duplicate = yield* asAlice.create({ name: "slow", spl: "y" })
      expect(errorOf(duplicate, 409, "duplicate_name").message).toContain("slow")
      errorOf(yield* asAlice.update(secret.id, { name: "slow" }), 409, "duplicate_name")
      expect(searchOf(yield* asAlice.get(secret.id)).name).toBe("secret")
      // Another creator, or another cluster, may use the name.
      expect(searchOf(yield* asBob.create({ name: "slow", spl: "y" }), 201).created_by).toBe(BOB)
      yield* splCluster(server, "default", "edits2")
      const elsewhere = searchesAt(server, { organization: "default", cluster: "edits2" }, alice)
      searchOf(yield* elsewhere.create({ name: "slow", spl: "y" }), 201)
      // Renaming a search to its own name is no conflict.
      expect(searchOf(yield* asAlice.update(secret.id, { name: "secret" })).name).toBe("secret")
    })
  )

  it.effect("deleting: the creator, or an organization admin for a shared search", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      const bob = yield* login(server, BOB)
      const admin = yield* login(server, ADMIN)
      yield* splCluster(server, "default", "deletes")
      const place = { organization: "default", cluster: "deletes" }
      const asAlice = searchesAt(server, place, alice)
      const asBob = searchesAt(server, place, bob)
      const asAdmin = searchesAt(server, place, admin)
      const shared = searchOf(
        yield* asAlice.create({ name: "shared", spl: "a", visibility: "shared" }),
        201
      )
      const priv = searchOf(yield* asAlice.create({ name: "private", spl: "b" }), 201)
      const own = searchOf(yield* asAlice.create({ name: "own", spl: "c" }), 201)

      errorOf(yield* asBob.remove(shared.id), 403, "forbidden")
      // An admin does not see another user's private search, so cannot delete it.
      errorOf(yield* asAdmin.remove(priv.id), 404, "not_found")
      // An admin may not change a shared search, only delete it.
      errorOf(yield* asAdmin.update(shared.id, { name: "taken" }), 403, "forbidden")
      const removed = yield* asAdmin.remove(shared.id)
      expect(removed.status, removed.text).toBe(200)
      expect(removed.json).toEqual({ deleted: true })
      errorOf(yield* asAlice.get(shared.id), 404, "not_found")
      expect((yield* asAlice.remove(own.id)).json).toEqual({ deleted: true })
      errorOf(yield* asAlice.remove(own.id), 404, "not_found")
      expect(listOf(yield* asAlice.list()).searches.map((s) => s.id)).toEqual([priv.id])
    })
  )

  it.effect("uninstalling keeps the records behind a 404; reinstalling restores them", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const alice = yield* login(server, ALICE)
      yield* splCluster(server, "default", "lifecycle")
      const at = searchesAt(server, { organization: "default", cluster: "lifecycle" }, alice)
      const kept = searchOf(yield* at.create({ name: "kept", spl: "error", latest: "now" }), 201)

      yield* setApp(server, "default", "lifecycle", "DELETE")
      const replies = [
        yield* at.list(),
        yield* at.create({ name: "new", spl: "error" }),
        yield* at.get(kept.id),
        yield* at.update(kept.id, { name: "renamed" }),
        yield* at.remove(kept.id)
      ]
      for (const reply of replies) {
        const error = errorOf(reply, 404, "not_found")
        expect(error.message).toContain("spl-app")
        expect(error.hint).toContain("PUT /v1/apps/spl-app?organization=default&cluster=lifecycle")
      }

      yield* setApp(server, "default", "lifecycle", "PUT")
      expect(searchOf(yield* at.get(kept.id))).toEqual(kept)
      expect(listOf(yield* at.list()).searches.map((s) => s.name)).toEqual(["kept"])
    })
  )
})
