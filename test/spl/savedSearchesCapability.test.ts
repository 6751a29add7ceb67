/**
 * Saved searches as a program embedding sluice calls `SavedSearches` (no transport), on the
 * in-memory composition (layers/Test.ts): who sees, changes and deletes which search is
 * the capability's rule, so it holds without HTTP. The wire shapes of the same rules are
 * savedSearches.test.ts's.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import {
  CreateSavedSearchRequest,
  UpdateSavedSearchRequest
} from "../../domain/api/SavedSearchesApi.js"
import { Authorization } from "../../domain/Authorization.js"
import { FirstStart } from "../../domain/FirstStart.js"
import { UserCaller } from "../../domain/Identity.js"
import { SavedSearches } from "../../domain/SavedSearches.js"
import { InMemoryLive } from "../../layers/Test.js"
import { OrganizationsRepo } from "../../src/identity/OrganizationsRepo.js"
import { UsersRepo } from "../../src/identity/UsersRepo.js"
import { adminKeyCaller, tagOf } from "../support/inMemory.js"

const place = { organization: "default", cluster: "default" }

/** A user of organization `default` with `role`, as a signed-in caller. */
const memberOf = (email: string, role: "admin" | "member") =>
  Effect.gen(function* () {
    const users = yield* UsersRepo
    const organizations = yield* OrganizationsRepo
    yield* users.createIfAbsent(email, null)
    const user = Option.getOrThrow(yield* users.findByEmail(email))
    const org = Option.getOrThrow(yield* organizations.findByName("default"))
    yield* organizations.setRole(org.id, user.id, role)
    return new UserCaller({ userId: user.id, email, via: "session" })
  })

/** The first start's admin, an admin of organization `default`. */
const firstAdmin = Effect.gen(function* () {
  const { email } = Option.getOrThrow(yield* FirstStart)
  const user = Option.getOrThrow(yield* (yield* UsersRepo).findByEmail(email))
  return new UserCaller({ userId: user.id, email, via: "session" })
})

layer(InMemoryLive(), { timeout: 120_000 })("saved searches, called directly", (it) => {
  it.effect("private is the creator's, shared is the organization's; only the creator edits", () =>
    Effect.gen(function* () {
      const admin = yield* adminKeyCaller
      const scope = yield* (yield* Authorization).clusterScope(admin, "insert", {})
      yield* (yield* AppRegistry).install(scope.clusterId, AppIds.spl)
      const searches = yield* SavedSearches
      const alice = yield* memberOf("alice@example.com", "member")
      const bob = yield* memberOf("bob@example.com", "member")
      const orgAdmin = yield* firstAdmin

      const create = (caller: UserCaller, name: string, visibility: "private" | "shared") =>
        searches.create(
          caller,
          place,
          CreateSavedSearchRequest.make({ name, spl: "status>=500", visibility }),
          undefined
        )
      const mine = yield* create(alice, "mine", "private")
      const ours = yield* create(alice, "ours", "shared")
      expect(mine.database).toBe("default")

      const names = (caller: UserCaller) =>
        Effect.map(searches.list(caller, place, {}), (list) => list.searches.map((s) => s.name))
      expect(yield* names(alice)).toEqual(["mine", "ours"])
      expect(yield* names(bob)).toEqual(["ours"])
      // A private search of someone else's is missing, exactly like one that never existed.
      expect(yield* tagOf(searches.get(bob, place, mine.id))).toBe("SavedSearchNotFound")

      const rename = UpdateSavedSearchRequest.make({ name: "bob's now" })
      expect(yield* tagOf(searches.update(bob, place, ours.id, rename))).toBe("Forbidden")
      expect(yield* tagOf(searches.update(bob, place, mine.id, rename))).toBe("SavedSearchNotFound")
      expect(yield* tagOf(searches.update(orgAdmin, place, ours.id, rename))).toBe("Forbidden")
      expect(yield* tagOf(create(alice, "ours", "private"))).toBe("DuplicateSavedSearchName")
      expect((yield* create(bob, "ours", "private")).name).toBe("ours")

      expect(yield* tagOf(searches.remove(bob, place, ours.id))).toBe("Forbidden")
      expect(yield* tagOf(searches.remove(orgAdmin, place, mine.id))).toBe("SavedSearchNotFound")
      yield* searches.remove(orgAdmin, place, ours.id)
      expect(yield* names(alice)).toEqual(["mine"])

      // Behind the app: uninstalled, the records are out of reach; reinstalled, unchanged.
      yield* (yield* AppRegistry).uninstall(scope.clusterId, AppIds.spl)
      expect(yield* tagOf(searches.list(alice, place, {}))).toBe("AppNotInstalled")
      yield* (yield* AppRegistry).install(scope.clusterId, AppIds.spl)
      expect(yield* searches.get(alice, place, mine.id)).toEqual(mine)
    })
  )
})
