/**
 * Saved searches over HTTP: the list's filters, its cap of 200 with `truncated`, and
 * bad input (bodies, SPL outside the subset, ids), each a 400 in the documented shape that
 * saves nothing.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import {
  ADMIN,
  env,
  errorOf,
  listOf,
  login,
  member,
  searchesAt,
  searchOf,
  splCluster
} from "../support/savedSearches.js"
import { call, freshDataDir, TestServer } from "../support/server.js"

const DANA = "dana@example.com"
const EVE = "Eve@Example.com"

const namesOf = (list: { readonly searches: ReadonlyArray<{ readonly name: string }> }) =>
  list.searches.map((s) => s.name)

layer(TestServer.layer(freshDataDir("saved-list"), env), {
  excludeTestServices: true,
  timeout: 120_000
})("saved search list and bad input", (it) => {
  it.effect("filters by text, creator, database and visibility, each and together", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const dana = yield* member(server, "default", DANA, "member")
      const eve = yield* member(server, "default", EVE, "member")
      yield* splCluster(server, "default", "filters")
      const place = { organization: "default", cluster: "filters" }
      const asDana = searchesAt(server, place, dana)
      const asEve = searchesAt(server, place, eve)
      const create = (at: typeof asDana, body: Record<string, unknown>) =>
        Effect.map(at.create(body), (reply) => searchOf(reply, 201))
      yield* create(asDana, { name: "Checkout errors", spl: "index=web status>=500" })
      yield* create(asDana, {
        name: "logins",
        spl: "index=auth ERROR",
        database: "more",
        visibility: "shared"
      })
      yield* create(asDana, { name: "disk", spl: "index=os usage>90", visibility: "shared" })
      yield* create(asEve, { name: "eve errors", spl: "index=web error", visibility: "shared" })
      yield* create(asEve, { name: "eve private", spl: "index=web", database: "more" })

      // Dana sees her three and Eve's shared one, by name.
      expect(namesOf(listOf(yield* asDana.list()))).toEqual([
        "Checkout errors",
        "disk",
        "eve errors",
        "logins"
      ])
      // Text: a case-insensitive substring of the name or of the SPL.
      expect(namesOf(listOf(yield* asDana.list({ search: "ERRORS" })))).toEqual([
        "Checkout errors",
        "eve errors"
      ])
      expect(namesOf(listOf(yield* asDana.list({ search: "error" })))).toEqual([
        "Checkout errors",
        "eve errors",
        "logins"
      ])
      expect(namesOf(listOf(yield* asDana.list({ search: "usage>9" })))).toEqual(["disk"])
      // The text is never a pattern.
      expect(namesOf(listOf(yield* asDana.list({ search: "%" })))).toEqual([])
      expect(namesOf(listOf(yield* asDana.list({ search: "e_r" })))).toEqual([])
      // Creator by email, in any case.
      expect(namesOf(listOf(yield* asDana.list({ created_by: "eve@example.com" })))).toEqual([
        "eve errors"
      ])
      expect(namesOf(listOf(yield* asDana.list({ created_by: "DANA@example.com" })))).toEqual([
        "Checkout errors",
        "disk",
        "logins"
      ])
      expect(namesOf(listOf(yield* asDana.list({ database: "more" })))).toEqual(["logins"])
      expect(namesOf(listOf(yield* asEve.list({ database: "more" })))).toEqual([
        "eve private",
        "logins"
      ])
      expect(namesOf(listOf(yield* asDana.list({ visibility: "private" })))).toEqual([
        "Checkout errors"
      ])
      expect(namesOf(listOf(yield* asDana.list({ visibility: "shared" })))).toEqual([
        "disk",
        "eve errors",
        "logins"
      ])
      const together = { search: "index=web", visibility: "shared", created_by: "eve@example.com" }
      expect(namesOf(listOf(yield* asDana.list(together)))).toEqual(["eve errors"])
      expect(listOf(yield* asDana.list({ search: "nothing like this" }))).toEqual({
        searches: [],
        truncated: false
      })
      errorOf(yield* asDana.list({ visibility: "public" }), 400, "bad_request")
    })
  )

  it.effect("at most 200 are listed; truncated says when more match", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = yield* login(server, ADMIN)
      yield* splCluster(server, "default", "many")
      const at = searchesAt(server, { organization: "default", cluster: "many" }, admin)
      const name = (i: number) => `s${String(i).padStart(3, "0")}`
      // 200 searches over HTTP, one by one.
      for (let i = 0; i < 200; i++) searchOf(yield* at.create({ name: name(i), spl: "x" }), 201)
      const exactly = listOf(yield* at.list())
      expect(exactly.truncated).toBe(false)
      expect(namesOf(exactly)).toEqual(Array.from({ length: 200 }, (_, i) => name(i)))

      searchOf(yield* at.create({ name: name(200), spl: "x" }), 201)
      const over = listOf(yield* at.list())
      expect(over.truncated).toBe(true)
      expect(namesOf(over)).toEqual(Array.from({ length: 200 }, (_, i) => name(i)))
      // A filter that matches fewer is complete again.
      const few = listOf(yield* at.list({ search: "s19" }))
      expect(few.truncated).toBe(false)
      expect(namesOf(few)).toEqual(Array.from({ length: 10 }, (_, i) => name(190 + i)))
    })
  )

  it.effect("bad bodies are 400 in the documented shape, and nothing is saved", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = yield* login(server, ADMIN)
      yield* splCluster(server, "default", "bad")
      const at = searchesAt(server, { organization: "default", cluster: "bad" }, admin)
      const refused = [
        { spl: "error" },
        { name: "no spl" },
        { name: "   ", spl: "error" },
        { name: 7, spl: "error" },
        { name: "v", spl: "error", visualization: "pie" },
        { name: "t", spl: "error", earliest: "yesterday" },
        { name: "t", spl: "error", latest: "-5x" },
        { name: "t", spl: "error", earliest: "-1h@fortnight" },
        { name: "t", spl: "error", earliest: "-1h", latest: "-2h" },
        { name: "s", spl: "error", span_minutes: 0 },
        { name: "s", spl: "error", span_minutes: 1.5 },
        { name: "k", spl: "error", keep_results: "yes" },
        { name: "p", spl: "error", visibility: "public" },
        []
      ]
      for (const body of refused) {
        const error = errorOf(yield* at.create(body), 400, "bad_request")
        expect(error.message, JSON.stringify(body)).not.toMatch(/\/work\/|node_modules|at .*\.ts/)
      }
      const notJson = yield* call(
        server,
        "POST",
        "/v1/apps/spl/searches?organization=default&cluster=bad",
        { token: admin, rawBody: "{name:", headers: { "content-type": "application/json" } }
      )
      errorOf(notJson, 400, "bad_request")

      // SPL outside the subset, named with its position; never saved.
      const unsupported = yield* at.create({ name: "tx", spl: "index=main | transaction host" })
      const spl = errorOf(unsupported, 400, "bad_request")
      expect(spl.message).toContain("transaction")
      expect(spl.message).toContain("13")
      expect(listOf(yield* at.list())).toEqual({ searches: [], truncated: false })

      // The same rules on update; the search is unchanged after each refusal.
      const kept = searchOf(yield* at.create({ name: "kept", spl: "error" }), 201)
      const updates: ReadonlyArray<readonly [Record<string, unknown>, number, string]> = [
        [{ name: "" }, 400, "bad_request"],
        [{ visualization: "pie" }, 400, "bad_request"],
        [{ earliest: "yesterday" }, 400, "bad_request"],
        [{ span_minutes: -1 }, 400, "bad_request"],
        [{ visibility: "public" }, 400, "bad_request"],
        [{ spl: "error | transaction host" }, 400, "bad_request"],
        [{ database: "nowhere" }, 404, "not_found"]
      ]
      for (const [body, status, code] of updates)
        errorOf(yield* at.update(kept.id, body), status, code)
      expect(searchOf(yield* at.get(kept.id))).toEqual(kept)
      // An id that is not a search id.
      errorOf(yield* at.get("not-a-uuid"), 400, "bad_request")
      // organization and cluster are required on every request.
      const unscoped = yield* call(server, "GET", "/v1/apps/spl/searches", { token: admin })
      errorOf(unscoped, 400, "bad_request")
    })
  )
})
