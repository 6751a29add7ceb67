/**
 * Adding an email that already has an account invites it: the account's user joins by
 * accepting, the inviter learns nothing of the account (its id included) and the password
 * the inviter chose is never used. An email without an account is a member at once, with
 * the password given (as before).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import {
  AddedMember,
  Invitation,
  Member,
  SentInvitation
} from "../../domain/api/OrganizationsApi.js"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "invite-admin@example.com"
const PASSWORD = "invite admin password"
const OTHER = "other-admin@example.com"
const OTHER_PASSWORD = "other admin password"
const VICTIM = "victim@example.com"
const VICTIM_PASSWORD = "victim's own password"

const send = (method: string, path: string, token: string, body?: unknown) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, path, { token, ...(body === undefined ? {} : { body }) })
  )

const login = (email: string, password: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/login", { body: { email, password } })
  )

const sessionOf = (email: string, password: string) =>
  Effect.map(login(email, password), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(LoginResponse, reply).token
  })

const add = (token: string, org: string, body: unknown) =>
  Effect.map(send("POST", `/v1/organizations/${org}/members`, token, body), (reply) => {
    expect(reply.status, reply.text).toBe(201)
    return { reply, added: bodyOf(Schema.Struct({ member: AddedMember }), reply).member }
  })

const Members = Schema.Struct({ members: Schema.Array(Member) })
const Invitations = Schema.Struct({ invitations: Schema.Array(Invitation) })
const Sent = Schema.Struct({ invitations: Schema.Array(SentInvitation) })
const Memberships = Schema.Struct({
  organizations: Schema.Array(Schema.Struct({ name: Schema.String, role: Schema.String }))
})

const organizationsOf = (token: string) =>
  Effect.map(send("GET", "/v1/organizations", token), (r) => bodyOf(Memberships, r).organizations)

const invitationsOf = (token: string) =>
  Effect.map(send("GET", "/v1/invitations", token), (r) => {
    expect(r.status, r.text).toBe(200)
    return bodyOf(Invitations, r).invitations
  })

layer(
  TestServer.layer(freshDataDir("invitations"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("invitations", (it) => {
  it.effect(
    "another organization adding an existing account invites it; it joins on accepting",
    () =>
      Effect.gen(function* () {
        const admin = yield* sessionOf(ADMIN, PASSWORD)
        // New emails: accounts with the given passwords, members at once.
        const victim = (yield* add(admin, "default", {
          email: VICTIM,
          role: "member",
          password: VICTIM_PASSWORD
        })).added
        expect(victim).toMatchObject({ email: VICTIM, role: "member", status: "member" })
        expect(victim.user_id).toMatch(/^[0-9a-f-]{36}$/)
        yield* add(admin, "default", { email: OTHER, role: "member", password: OTHER_PASSWORD })
        const other = yield* sessionOf(OTHER, OTHER_PASSWORD)
        const created = yield* send("POST", "/v1/organizations", other, {
          organization_name: "beta"
        })
        expect(created.status, created.text).toBe(201)

        // The other organization adds the victim's email as its admin, with a password of its own.
        const { reply, added } = yield* add(other, "beta", {
          email: VICTIM.toUpperCase(),
          role: "admin",
          password: "the other admin's pick"
        })
        expect(added).toEqual(new AddedMember({ email: VICTIM, role: "admin", status: "invited" }))
        expect(reply.text).not.toContain(victim.user_id!)
        // That password was not set, and the account is in nothing it did not accept.
        expect((yield* login(VICTIM, "the other admin's pick")).status).toBe(401)
        const own = yield* sessionOf(VICTIM, VICTIM_PASSWORD)
        expect(yield* organizationsOf(own)).toEqual([{ name: "default", role: "member" }])
        expect((yield* send("GET", "/v1/clusters?organization=beta", own)).status).toBe(404)
        const betaMembers = bodyOf(
          Members,
          yield* send("GET", "/v1/organizations/beta/members", other)
        )
        expect(betaMembers.members.map((m) => m.email)).toEqual([OTHER])
        const sent = bodyOf(Sent, yield* send("GET", "/v1/organizations/beta/invitations", other))
        expect(sent.invitations.map(({ email, role }) => ({ email, role }))).toEqual([
          { email: VICTIM, role: "admin" }
        ])
        // Members of beta who are not admins do not see its invitations.
        expect((yield* send("GET", "/v1/organizations/beta/invitations", own)).status).toBe(404)

        const pending = yield* invitationsOf(own)
        expect(pending).toHaveLength(1)
        expect(pending[0]).toMatchObject({
          organization: { name: "beta" },
          role: "admin",
          invited_by: OTHER
        })
        const accepted = yield* send("POST", `/v1/invitations/${pending[0]!.id}/accept`, own)
        expect(accepted.status, accepted.text).toBe(200)
        expect(accepted.json).toEqual({ organization: { name: "beta", role: "admin" } })
        expect(yield* organizationsOf(own)).toEqual([
          { name: "beta", role: "admin" },
          { name: "default", role: "member" }
        ])
        expect((yield* send("POST", `/v1/invitations/${pending[0]!.id}/accept`, own)).status).toBe(
          404
        )
        expect(yield* invitationsOf(own)).toEqual([])
        // Now a member: adding again is the 409 it always was.
        expect(
          (yield* send("POST", "/v1/organizations/beta/members", other, {
            email: VICTIM,
            role: "member"
          })).status
        ).toBe(409)
      })
  )

  it.effect("invitations are declined by their user and withdrawn by the organization", () =>
    Effect.gen(function* () {
      const admin = yield* sessionOf(ADMIN, PASSWORD)
      const other = yield* sessionOf(OTHER, OTHER_PASSWORD)
      const victim = yield* sessionOf(VICTIM, VICTIM_PASSWORD)
      expect((yield* add(other, "beta", { email: ADMIN, role: "member" })).added.status).toBe(
        "invited"
      )
      const [declining] = yield* invitationsOf(admin)
      // Only its user answers an invitation.
      expect((yield* send("POST", `/v1/invitations/${declining!.id}/accept`, victim)).status).toBe(
        404
      )
      expect((yield* send("DELETE", `/v1/invitations/${declining!.id}`, victim)).status).toBe(404)
      const declined = yield* send("DELETE", `/v1/invitations/${declining!.id}`, admin)
      expect(declined.json).toEqual({ deleted: true })
      expect(yield* invitationsOf(admin)).toEqual([])
      expect((yield* organizationsOf(admin)).map((o) => o.name)).toEqual(["default"])

      yield* add(other, "beta", { email: ADMIN, role: "member" })
      // Adding again changes the pending invitation's role.
      yield* add(other, "beta", { email: ADMIN, role: "admin" })
      const [withdrawn] = bodyOf(
        Sent,
        yield* send("GET", "/v1/organizations/beta/invitations", other)
      ).invitations
      expect(withdrawn).toMatchObject({ email: ADMIN, role: "admin" })
      // Another organization's admin cannot withdraw it.
      expect(
        (yield* send("DELETE", `/v1/organizations/default/invitations/${withdrawn!.id}`, admin))
          .status
      ).toBe(404)
      const cancelled = yield* send(
        "DELETE",
        `/v1/organizations/beta/invitations/${withdrawn!.id}`,
        other
      )
      expect(cancelled.json).toEqual({ deleted: true })
      expect(yield* invitationsOf(admin)).toEqual([])
      expect((yield* send("POST", `/v1/invitations/${withdrawn!.id}/accept`, admin)).status).toBe(
        404
      )
      expect((yield* send("POST", "/v1/invitations/not-a-uuid/accept", admin)).status).toBe(400)
      const nul = yield* send("POST", "/v1/organizations/beta/members", other, {
        email: "nul\u0000@example.com",
        role: "member"
      })
      expect(nul.status, nul.text).toBe(400)
      expect(nul.json).toMatchObject({ error: "bad_request" })
    })
  )
})
