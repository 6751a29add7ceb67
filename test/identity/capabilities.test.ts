/**
 * Signing in and managing organizations without HTTP, as a program embedding sluice does,
 * on the in-memory composition (layers/Test.ts): the rules live in `Sessions` and
 * `Organizations`, so they hold here as through the endpoints. A session ends when signed
 * out, a password change ends every other session; a new email is a member at once, an
 * account is invited and joins only by accepting, an organization always keeps an admin,
 * and names are unique.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { AddMemberRequest } from "../../domain/api/OrganizationsApi.js"
import { Authorization } from "../../domain/Authorization.js"
import { ClusterLifecycle } from "../../domain/ClusterLifecycle.js"
import { FirstStart } from "../../domain/FirstStart.js"
import type { OrganizationRole } from "../../domain/Identity.js"
import { Authenticator, UserCaller } from "../../domain/Identity.js"
import { Organizations } from "../../domain/Organizations.js"
import { Sessions } from "../../domain/Sessions.js"
import { UsersRepo } from "../../src/identity/UsersRepo.js"
import { InMemoryLive } from "../../layers/Test.js"
import { tagOf } from "../support/inMemory.js"

/** The user with `email`, as a session's caller. */
const userNamed = (email: string) =>
  Effect.gen(function* () {
    const found = yield* (yield* UsersRepo).findByEmail(email)
    const user = Option.getOrThrowWith(found, () => new Error(`no user ${email}`))
    return new UserCaller({ userId: user.id, email: user.email, via: "session" })
  })

const firstAdmin = Effect.flatMap(FirstStart, (first) =>
  userNamed(Option.getOrThrowWith(first, () => new Error("not a first start")).email)
)

const scopeOf = (caller: UserCaller, organization: string, need: OrganizationRole = "admin") =>
  Effect.flatMap(Authorization, (authorization) =>
    authorization.organizationScope(caller, organization, need, "manage it")
  )

const roles = (organization: string, caller: UserCaller) =>
  Effect.gen(function* () {
    const members = yield* (yield* Organizations).members(
      yield* scopeOf(caller, organization, "member")
    )
    return Object.fromEntries(members.map((m) => [m.email, m.role]))
  })

const CLIENT = "192.0.2.1"

/** The caller a session token stands for (it must be one). */
const callerOf = (token: string) =>
  Effect.flatMap(Authenticator, (authenticator) => authenticator.authenticate(Redacted.make(token)))

layer(InMemoryLive(), { timeout: 120_000 })("identity capabilities", (it) => {
  it.effect("sessions: signed out is refused; a password change ends the other sessions", () =>
    Effect.gen(function* () {
      const sessions = yield* Sessions
      const first = Option.getOrThrow(yield* FirstStart)
      const password = Option.getOrThrow(first.generatedPassword)
      expect(
        yield* tagOf(sessions.login(first.email, Redacted.make("not it at all"), CLIENT))
      ).toBe("Unauthorized")

      const signedIn = yield* sessions.login(first.email, password, CLIENT)
      expect(signedIn.email).toBe(first.email)
      const caller = yield* callerOf(signedIn.token)
      if (caller._tag !== "UserCaller") return yield* Effect.dieMessage("expected a user")
      expect(caller.via).toBe("session")
      yield* sessions.logout(caller)
      expect(yield* tagOf(callerOf(signedIn.token))).toBe("Unauthorized")
      expect(
        yield* tagOf(
          sessions.logout(new UserCaller({ ...caller, via: "oauth", session: undefined }))
        )
      ).toBe("BadRequest")

      const other = yield* sessions.login(first.email, password, CLIENT)
      const mine = yield* sessions.login(first.email, password, CLIENT)
      const me = yield* callerOf(mine.token)
      if (me._tag !== "UserCaller") return yield* Effect.dieMessage("expected a user")
      const next = Redacted.make("a new password of enough length")
      expect(
        yield* tagOf(sessions.changePassword(me, Redacted.make("wrong current one"), next, CLIENT))
      ).toBe("Unauthorized")
      const changed = yield* sessions.changePassword(me, password, next, CLIENT)
      expect((yield* callerOf(changed.token))._tag).toBe("UserCaller")
      expect(yield* tagOf(callerOf(other.token))).toBe("Unauthorized")
      expect(yield* tagOf(callerOf(mine.token))).toBe("Unauthorized")
      expect(yield* tagOf(sessions.login(first.email, password, CLIENT))).toBe("Unauthorized")
      expect((yield* sessions.login(first.email, next, CLIENT)).email).toBe(first.email)
    })
  )

  it.effect("a new email is a member at once; an account is invited and joins by accepting", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations
      const admin = yield* firstAdmin
      yield* organizations.create("acme", admin.userId)
      expect(yield* tagOf(organizations.create("acme", admin.userId))).toBe("Conflict")
      const acme = yield* scopeOf(admin, "acme")

      const added = yield* organizations.addMember(
        acme,
        new AddMemberRequest({ email: "new@acme.test", role: "member" })
      )
      expect(added).toMatchObject({ email: "new@acme.test", role: "member", status: "member" })
      expect(added.user_id).toBeDefined()
      expect(
        yield* tagOf(
          organizations.addMember(
            acme,
            new AddMemberRequest({ email: "new@acme.test", role: "admin" })
          )
        )
      ).toBe("Conflict")

      // An account made elsewhere (a member of `default`) is only invited to acme.
      yield* organizations.addMember(
        yield* scopeOf(admin, "default"),
        new AddMemberRequest({ email: "elsewhere@acme.test", role: "member" })
      )
      const invited = yield* organizations.addMember(
        acme,
        new AddMemberRequest({ email: "elsewhere@acme.test", role: "admin" })
      )
      expect(invited).toMatchObject({ status: "invited", role: "admin" })
      expect(invited.user_id).toBeUndefined()
      expect(yield* roles("acme", admin)).toEqual({
        [admin.email]: "admin",
        "new@acme.test": "member"
      })
      expect((yield* organizations.invitations(acme)).map((i) => i.email)).toEqual([
        "elsewhere@acme.test"
      ])

      const elsewhere = yield* userNamed("elsewhere@acme.test")
      const [invitation] = yield* organizations.invitationsOf(elsewhere.userId)
      expect(invitation).toMatchObject({ organization: { name: "acme" }, role: "admin" })
      expect(
        yield* tagOf(
          organizations.accept(invitation!.id, (yield* userNamed("new@acme.test")).userId)
        )
      ).toBe("NotFound")
      const joined = yield* organizations.accept(invitation!.id, elsewhere.userId)
      expect(joined).toMatchObject({ name: "acme", role: "admin" })
      expect((yield* roles("acme", admin))["elsewhere@acme.test"]).toBe("admin")
      expect(yield* organizations.invitations(acme)).toEqual([])
      expect(yield* tagOf(organizations.accept(invitation!.id, elsewhere.userId))).toBe("NotFound")
    })
  )

  it.effect("a new organization has a cluster default of its own; another's is not found", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations
      const lifecycle = yield* ClusterLifecycle
      const admin = yield* firstAdmin
      yield* organizations.create("delta", admin.userId)
      const delta = (yield* scopeOf(admin, "delta")).organizationId
      const home = (yield* scopeOf(admin, "default")).organizationId
      const [own, ...more] = yield* lifecycle.clustersOf(delta)
      expect({ name: own?.name, more: more.length }).toEqual({ name: "default", more: 0 })
      const byName = yield* lifecycle.find(delta, { name: "default" })
      expect(Option.map(byName, (c) => c.id)).toEqual(Option.some(own!.id))
      expect(Option.isSome(yield* lifecycle.find(delta, { id: own!.id }))).toBe(true)
      // The same id, asked for from the first organization, is not there; nor is a made-up name.
      expect(yield* lifecycle.find(home, { id: own!.id })).toEqual(Option.none())
      expect(yield* lifecycle.find(delta, { name: "nope" })).toEqual(Option.none())
      expect(
        Option.map(yield* lifecycle.find(home, { name: "default" }), (c) => c.id !== own!.id)
      ).toEqual(Option.some(true))
    })
  )

  it.effect("an organization always keeps an admin", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations
      const admin = yield* firstAdmin
      yield* organizations.create("solo", admin.userId)
      const solo = yield* scopeOf(admin, "solo")
      expect(yield* tagOf(organizations.setRole(solo, admin.userId, "member"))).toBe("Conflict")
      expect(yield* tagOf(organizations.removeMember(solo, admin.userId))).toBe("Conflict")

      const other = yield* organizations.addMember(
        solo,
        new AddMemberRequest({ email: "second@solo.test", role: "member" })
      )
      expect(yield* tagOf(organizations.removeMember(solo, admin.userId))).toBe("Conflict")
      const promoted = yield* organizations.setRole(solo, other.user_id!, "admin")
      expect(promoted).toMatchObject({ email: "second@solo.test", role: "admin" })
      // Another admin now stays, so the first may step down and then leave.
      yield* organizations.setRole(solo, admin.userId, "member")
      yield* organizations.removeMember(solo, admin.userId)
      const second = yield* userNamed("second@solo.test")
      expect(yield* roles("solo", second)).toEqual({ "second@solo.test": "admin" })
      expect(yield* tagOf(organizations.removeMember(solo, admin.userId))).toBe("NotFound")
      expect((yield* organizations.ofUser(admin.userId)).some((o) => o.name === "solo")).toBe(false)
    })
  )

  it.effect("invitations declined or withdrawn are gone; names stay unique", () =>
    Effect.gen(function* () {
      const organizations = yield* Organizations
      const admin = yield* firstAdmin
      yield* organizations.create("beta", admin.userId)
      const beta = yield* scopeOf(admin, "beta")
      yield* organizations.addMember(
        yield* scopeOf(admin, "default"),
        new AddMemberRequest({ email: "guest@beta.test", role: "member" })
      )
      const guest = yield* userNamed("guest@beta.test")
      const invite = Effect.zipRight(
        organizations.addMember(beta, new AddMemberRequest({ email: guest.email, role: "member" })),
        Effect.map(organizations.invitationsOf(guest.userId), (all) => all[0]!.id)
      )

      const declined = yield* invite
      yield* organizations.decline(declined, guest.userId)
      expect(yield* tagOf(organizations.decline(declined, guest.userId))).toBe("NotFound")
      expect(yield* tagOf(organizations.accept(declined, guest.userId))).toBe("NotFound")

      const withdrawn = yield* invite
      yield* organizations.cancelInvitation(beta, withdrawn)
      expect(yield* tagOf(organizations.cancelInvitation(beta, withdrawn))).toBe("NotFound")
      expect(yield* organizations.invitationsOf(guest.userId)).toEqual([])

      expect(yield* tagOf(organizations.rename(beta, "default"))).toBe("Conflict")
      yield* organizations.rename(beta, "gamma")
      expect((yield* organizations.ofUser(admin.userId)).map((o) => o.name)).toContain("gamma")
      yield* organizations.remove(beta)
      expect((yield* organizations.ofUser(admin.userId)).map((o) => o.name)).not.toContain("gamma")
    })
  )
})
