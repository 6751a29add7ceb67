/**
 * Users over HTTP: password login, session JWTs, OIDC access tokens from a loopback
 * issuer, organizations and members.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SignJWT } from "jose"
import { vi } from "vitest"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { Member } from "../../domain/api/OrganizationsApi.js"
import { ServiceSecrets } from "../../src/identity/ServiceSecrets.js"
import { SESSION_ISSUER } from "../../src/identity/SessionTokens.js"
import { OidcIssuer } from "../support/oidc.js"
import { TestServer, call, freshDataDir, bodyOf } from "../support/server.js"

// Every argon2 verification the server runs, by the hash it verifies against.
const argon2 = vi.hoisted(() => ({ verified: [] as Array<string> }))
vi.mock("@node-rs/argon2", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@node-rs/argon2")>()
  const verify: typeof actual.verify = (hashed, ...rest) => {
    argon2.verified.push(typeof hashed === "string" ? hashed : Buffer.from(hashed).toString())
    return actual.verify(hashed, ...rest)
  }
  return { ...actual, verify }
})

const ADMIN = "owner@example.com"
const PASSWORD = "correct horse battery staple"
const AUDIENCE = "sluice-tests"

const ServerWithOidc = Layer.unwrapEffect(
  Effect.map(OidcIssuer, (oidc) =>
    TestServer.layer(freshDataDir(), {
      SLUICE_ADMIN_EMAIL: ADMIN,
      SLUICE_ADMIN_PASSWORD: PASSWORD,
      SLUICE_OIDC_ISSUER: oidc.issuer,
      SLUICE_OIDC_AUDIENCE: AUDIENCE
    })
  )
).pipe(Layer.provideMerge(OidcIssuer.layer))

const login = (email: string, password: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "POST", "/v1/auth/login", { body: { email, password } })
  )

const sessionOf = (email: string, password: string) =>
  Effect.map(login(email, password), (reply) => {
    expect(reply.status).toBe(200)
    return Schema.decodeUnknownSync(LoginResponse)(reply.json).token
  })

layer(ServerWithOidc, { excludeTestServices: true, timeout: 120_000 })("users", (it) => {
  it.effect("the bootstrap admin logs in and sees the default organization", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      expect(Option.isSome(server.firstStart)).toBe(true)
      const first = Option.getOrThrow(server.firstStart)
      expect(first.email).toBe(ADMIN)
      // The password came from SLUICE_ADMIN_PASSWORD, so none was generated to print.
      expect(Option.isNone(first.generatedPassword)).toBe(true)
      const token = yield* sessionOf(ADMIN.toUpperCase(), PASSWORD)
      const orgs = yield* call(server, "GET", "/v1/organizations", { token })
      expect(orgs.json).toEqual({ organizations: [{ name: "default", role: "admin" }] })
    })
  )

  it.effect("wrong password and unknown user are the same 401 after the same argon2 work", () =>
    Effect.gen(function* () {
      const attempt = (email: string) =>
        Effect.gen(function* () {
          argon2.verified.length = 0
          const reply = yield* login(email, "not the password")
          return { reply, verified: [...argon2.verified] }
        })
      const wrong = yield* attempt(ADMIN)
      const unknown = yield* attempt("nobody@example.com")
      expect([wrong.reply.status, unknown.reply.status]).toEqual([401, 401])
      expect(unknown.reply.text).toBe(wrong.reply.text)
      expect(wrong.reply.json).toMatchObject({ error: "unauthorized" })
      // Whether an email has an account must not show in the response time: both run one
      // argon2id verification at the same cost, the unknown user's against a decoy hash.
      // (The times themselves: `npm run bench login`.)
      expect(wrong.verified).toHaveLength(1)
      expect(unknown.verified).toHaveLength(1)
      const costOf = (hash: string) => hash.split("$").slice(1, 4)
      expect(costOf(wrong.verified[0]!)).toEqual(["argon2id", "v=19", "m=19456,t=2,p=1"])
      expect(costOf(unknown.verified[0]!)).toEqual(costOf(wrong.verified[0]!))
      expect(unknown.verified[0]).not.toBe(wrong.verified[0])
    })
  )

  it.effect("expired, tampered and foreign-signed session tokens are refused", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const token = yield* sessionOf(ADMIN, PASSWORD)
      const secrets = Context.get(server.context, ServiceSecrets)
      const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString())
      const now = Math.floor(Date.now() / 1000)
      const expired = yield* Effect.promise(() =>
        new SignJWT({ email: claims.email })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuer(SESSION_ISSUER)
          .setAudience(SESSION_ISSUER)
          .setSubject(claims.sub)
          .setIssuedAt(now - 13 * 3600)
          .setExpirationTime(now - 3600)
          .sign(new Uint8Array(Redacted.value(secrets.jwtSecret)))
      )
      const forged = yield* Effect.promise(() =>
        new SignJWT({ email: claims.email })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuer(SESSION_ISSUER)
          .setAudience(SESSION_ISSUER)
          .setSubject(claims.sub)
          .setExpirationTime("1h")
          .sign(new TextEncoder().encode("x".repeat(32)))
      )
      const [head, body, sig] = token.split(".")
      const tampered = `${head}.${Buffer.from(JSON.stringify({ ...claims, email: "x@y" })).toString("base64url")}.${sig}`
      const unsigned = `${head}.${body}.`
      for (const bad of [expired, forged, tampered, unsigned]) {
        const reply = yield* call(server, "GET", "/v1/organizations", { token: bad })
        expect(reply.status).toBe(401)
        expect(reply.json).toMatchObject({ error: "unauthorized" })
      }
    })
  )

  it.effect("OIDC access tokens map to users by email; bad ones are 401", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const oidc = yield* OidcIssuer
      const good = yield* Effect.promise(() => oidc.sign({ email: ADMIN, aud: AUDIENCE }))
      const ok = yield* call(server, "GET", "/v1/organizations", { token: good })
      expect(ok.status).toBe(200)
      expect(ok.json).toEqual({ organizations: [{ name: "default", role: "admin" }] })
      const bad = yield* Effect.all([
        Effect.promise(() => oidc.sign({ email: ADMIN, aud: "someone-else" })),
        Effect.promise(() => oidc.sign({ email: "stranger@example.com", aud: AUDIENCE })),
        Effect.promise(() => oidc.sign({ email: ADMIN, aud: AUDIENCE }, { expiresIn: "-1m" })),
        Effect.promise(() => oidc.signWithForeignKey({ email: ADMIN, aud: AUDIENCE })),
        Effect.promise(() => oidc.sign({ aud: AUDIENCE }))
      ])
      for (const token of bad) {
        const reply = yield* call(server, "GET", "/v1/organizations", { token })
        expect(reply.status).toBe(401)
      }
      // A token from an issuer sluice was not told about.
      const unknownIssuer = yield* Effect.promise(() =>
        new SignJWT({ email: ADMIN, aud: AUDIENCE })
          .setProtectedHeader({ alg: "HS256" })
          .setIssuer("https://elsewhere.example")
          .setExpirationTime("5m")
          .sign(new TextEncoder().encode("y".repeat(32)))
      )
      expect(
        (yield* call(server, "GET", "/v1/organizations", { token: unknownIssuer })).status
      ).toBe(401)
    })
  )

  it.effect("org admins manage members; members read but change nothing", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const admin = yield* sessionOf(ADMIN, PASSWORD)
      const added = yield* call(server, "POST", "/v1/organizations/default/members", {
        token: admin,
        body: { email: "Member@Example.com", role: "member", password: "a member password" }
      })
      expect(added.status).toBe(201)
      const member = Schema.decodeUnknownSync(Schema.Struct({ member: Member }))(added.json).member
      expect(member).toMatchObject({ email: "member@example.com", role: "member" })
      const dup = yield* call(server, "POST", "/v1/organizations/default/members", {
        token: admin,
        body: { email: "member@example.com", role: "member" }
      })
      expect(dup.status).toBe(409)

      const memberToken = yield* sessionOf("member@example.com", "a member password")
      const list = yield* call(server, "GET", "/v1/organizations/default/members", {
        token: memberToken
      })
      expect(list.status).toBe(200)
      expect(list.json).toMatchObject({
        members: expect.arrayContaining([expect.objectContaining({ email: ADMIN, role: "admin" })])
      })
      // A member reads keys? No: key management is for admins.
      expect((yield* call(server, "GET", "/v1/keys", { token: memberToken })).status).toBe(403)
      const promote = yield* call(
        server,
        "PATCH",
        `/v1/organizations/default/members/${member.user_id}`,
        {
          token: memberToken,
          body: { role: "admin" }
        }
      )
      expect(promote.status).toBe(403)
      expect(promote.json).toMatchObject({ error: "forbidden" })
      expect(
        (yield* call(server, "GET", "/v1/organizations/elsewhere/members", { token: memberToken }))
          .status
      ).toBe(404)

      // The last admin can neither be demoted nor removed.
      const adminId = bodyOf(Schema.Struct({ members: Schema.Array(Member) }), list).members.find(
        (m) => m.email === ADMIN
      )!.user_id
      const demote = yield* call(server, "PATCH", `/v1/organizations/default/members/${adminId}`, {
        token: admin,
        body: { role: "member" }
      })
      expect(demote.status).toBe(409)
      expect(
        (yield* call(server, "DELETE", `/v1/organizations/default/members/${adminId}`, {
          token: admin
        })).status
      ).toBe(409)

      // An admin user manages keys of the organization's cluster.
      const created = yield* call(server, "POST", "/v1/keys?organization=default&cluster=default", {
        token: admin,
        body: { name: "from a session", permission: "read_write" }
      })
      expect(created.status).toBe(201)
      const removed = yield* call(
        server,
        "DELETE",
        `/v1/organizations/default/members/${member.user_id}`,
        { token: admin }
      )
      expect(removed.json).toEqual({ deleted: true })
      expect(
        (yield* call(server, "GET", "/v1/organizations", { token: memberToken })).json
      ).toEqual({ organizations: [] })
    })
  )

  it.effect("API keys cannot use user-only endpoints", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const key = Redacted.value(Option.getOrThrow(server.firstStart).apiKey)
      const reply = yield* call(server, "GET", "/v1/organizations", { token: key })
      expect(reply.status).toBe(403)
      expect(reply.json).toMatchObject({
        error: "forbidden",
        hint: expect.stringContaining("/v1/auth/login")
      })
    })
  )
})
