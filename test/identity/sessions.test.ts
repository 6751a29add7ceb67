/**
 * Sessions end when they should: sign-out ends the one token, a password change every
 * token of the user, removal from an organization what the user may do there. A session
 * token must expire, within a session's lifetime, whoever signed it.
 */
import { expect, layer } from "@effect/vitest"
import { Context, Effect, Option, Redacted, Schema } from "effect"
import { SignJWT } from "jose"
import { LoginResponse } from "../../domain/api/AuthApi.js"
import { Member } from "../../domain/api/OrganizationsApi.js"
import { ServiceSecrets } from "../../src/identity/ServiceSecrets.js"
import { SESSION_ISSUER } from "../../src/identity/SessionTokens.js"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "sessions-admin@example.com"
const PASSWORD = "sessions admin password"

const send = (method: string, path: string, token?: string, body?: unknown) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, method, path, {
      ...(token === undefined ? {} : { token }),
      ...(body === undefined ? {} : { body })
    })
  )

const sessionOf = (email: string, password: string) =>
  Effect.map(send("POST", "/v1/auth/login", undefined, { email, password }), (reply) => {
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(LoginResponse, reply).token
  })

const statusOf = (token: string) =>
  Effect.map(send("GET", "/v1/organizations", token), (reply) => reply.status)

/** A new member of `default` with its own password; its id. */
const addMember = (email: string, password: string) =>
  Effect.gen(function* () {
    const admin = yield* sessionOf(ADMIN, PASSWORD)
    const added = yield* send("POST", "/v1/organizations/default/members", admin, {
      email,
      role: "member",
      password
    })
    expect(added.status, added.text).toBe(201)
    return bodyOf(Schema.Struct({ member: Member }), added).member.user_id
  })

layer(
  TestServer.layer(freshDataDir("sessions"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("sessions", (it) => {
  it.effect("sign-out ends that session at once; the user's other sessions go on", () =>
    Effect.gen(function* () {
      const laptop = yield* sessionOf(ADMIN, PASSWORD)
      const phone = yield* sessionOf(ADMIN, PASSWORD)
      const out = yield* send("POST", "/v1/auth/logout", laptop)
      expect(out.status, out.text).toBe(200)
      expect(out.json).toEqual({ signed_out: true })
      expect(yield* statusOf(laptop)).toBe(401)
      expect((yield* send("POST", "/v1/auth/logout", laptop)).status).toBe(401)
      expect(yield* statusOf(phone)).toBe(200)
      // An API key is not a session: it is revoked with DELETE /v1/keys.
      const server = yield* TestServer
      const key = Redacted.value(Option.getOrThrow(server.firstStart).apiKey)
      expect((yield* send("POST", "/v1/auth/logout", key)).status).toBe(403)
    })
  )

  it.effect("a password change ends every session of the user and hands back a new one", () =>
    Effect.gen(function* () {
      yield* addMember("changer@example.com", "the first password")
      const one = yield* sessionOf("changer@example.com", "the first password")
      const two = yield* sessionOf("changer@example.com", "the first password")
      const wrong = yield* send("POST", "/v1/auth/password", one, {
        current_password: "not the password",
        new_password: "the second password"
      })
      expect(wrong.status, wrong.text).toBe(401)
      const short = yield* send("POST", "/v1/auth/password", one, {
        current_password: "the first password",
        new_password: "short"
      })
      expect(short.status, short.text).toBe(400)
      expect(yield* statusOf(one)).toBe(200)

      const changed = yield* send("POST", "/v1/auth/password", one, {
        current_password: "the first password",
        new_password: "the second password"
      })
      expect(changed.status, changed.text).toBe(200)
      const fresh = bodyOf(LoginResponse, changed)
      expect(fresh.email).toBe("changer@example.com")
      expect([yield* statusOf(one), yield* statusOf(two), yield* statusOf(fresh.token)]).toEqual([
        401, 401, 200
      ])
      const old = yield* send("POST", "/v1/auth/login", undefined, {
        email: "changer@example.com",
        password: "the first password"
      })
      expect(old.status).toBe(401)
      expect(yield* statusOf(yield* sessionOf("changer@example.com", "the second password"))).toBe(
        200
      )
    })
  )

  it.effect("a removed member loses the organization at once, with the same token", () =>
    Effect.gen(function* () {
      const id = yield* addMember("leaver@example.com", "a leaver password")
      const leaver = yield* sessionOf("leaver@example.com", "a leaver password")
      expect((yield* send("GET", "/v1/clusters?organization=default", leaver)).status).toBe(200)
      const admin = yield* sessionOf(ADMIN, PASSWORD)
      const removed = yield* send("DELETE", `/v1/organizations/default/members/${id}`, admin)
      expect(removed.status, removed.text).toBe(200)
      expect((yield* send("GET", "/v1/clusters?organization=default", leaver)).status).toBe(404)
      expect((yield* send("GET", "/v1/organizations/default/members", leaver)).status).toBe(404)
      expect((yield* send("GET", "/v1/organizations", leaver)).json).toEqual({
        organizations: []
      })
    })
  )

  it.effect("a session token must expire within a session's life, however it is signed", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const secret = new Uint8Array(
        Redacted.value(Context.get(server.context, ServiceSecrets).jwtSecret)
      )
      const genuine = yield* sessionOf(ADMIN, PASSWORD)
      const claims = JSON.parse(Buffer.from(genuine.split(".")[1]!, "base64url").toString())
      const now = Math.floor(Date.now() / 1000)
      const signed = (build: (jwt: SignJWT) => SignJWT) =>
        Effect.promise(() =>
          build(
            new SignJWT({ email: claims.email, gen: claims.gen })
              .setProtectedHeader({ alg: "HS256" })
              .setIssuer(SESSION_ISSUER)
              .setAudience(SESSION_ISSUER)
              .setSubject(claims.sub)
              .setJti(`forged-${Math.random()}`)
              .setIssuedAt(now)
          ).sign(secret)
        )
      // Signed as the service signs: accepted, so the refusals below are for their lifetimes.
      expect(yield* statusOf(yield* signed((jwt) => jwt.setExpirationTime(now + 3600)))).toBe(200)
      expect(yield* statusOf(yield* signed((jwt) => jwt))).toBe(401)
      const century = now + 100 * 365 * 24 * 3600
      expect(yield* statusOf(yield* signed((jwt) => jwt.setExpirationTime(century)))).toBe(401)
      const longAgo = yield* signed((jwt) =>
        jwt.setIssuedAt(now - 13 * 3600).setExpirationTime(now + 3600)
      )
      expect(yield* statusOf(longAgo)).toBe(401)
    })
  )
})
