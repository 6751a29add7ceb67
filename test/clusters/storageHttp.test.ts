/**
 * POST /v1/clusters/verify-s3-access over HTTP, against loopback STS and S3 that speak the
 * real protocols (test/support/storageFakes.ts): a verified role, then each failure with
 * the step that failed named in `message`; no credential ever comes back; members,
 * cluster keys and anonymous callers are refused.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { PROBE_KEY, StorageFakes, descriptorOf } from "../support/storageFakes.js"
import { TestServer, adminKeyOf, freshDataDir } from "../support/server.js"
import { memberSession, send } from "./securitySupport.js"
import { adminEnv, adminSession, expectError } from "./support.js"

const Live = Layer.unwrapEffect(
  Effect.map(StorageFakes, (fakes) =>
    TestServer.layer(freshDataDir(), { ...adminEnv, ...fakes.env })
  )
).pipe(Layer.provideMerge(StorageFakes.layer))

const PATH = "/v1/clusters/verify-s3-access?organization=default"
const probe = PROBE_KEY

const body = (...args: Parameters<typeof descriptorOf>) => ({ byo_s3: descriptorOf(...args) })

/** The 200 body of verify-s3-access, as the contract declares it. */
const Verification = Schema.Struct({
  verified: Schema.Boolean,
  message: Schema.String,
  external_id: Schema.String
})

/** The organization's external id, as `GET /v1/clusters` shows it to its members. */
const externalIdOfDefault = Effect.gen(function* () {
  const reply = yield* send(yield* adminSession, "GET", "/v1/clusters?organization=default")
  expect(reply.status, reply.text).toBe(200)
  const Listed = Schema.Struct({ organization: Schema.Struct({ external_id: Schema.String }) })
  return Schema.decodeUnknownSync(Listed)(reply.json).organization.external_id
})

/** The customer's trust policies name the organization's external id. */
const trustOrganization = Effect.gen(function* () {
  const fakes = yield* StorageFakes
  const externalId = yield* externalIdOfDefault
  yield* fakes.trust("readWrite", externalId)
  yield* fakes.trust("readOnly", externalId)
  return externalId
})

/**
 * Verifies as the organization admin; a 200 carrying `{verified, message}` only. Over raw
 * HTTP, not the typed client: the key set and the absence of secrets are wire facts.
 */
const verify = (payload: unknown) =>
  Effect.gen(function* () {
    const fakes = yield* StorageFakes
    const reply = yield* send(yield* adminSession, "POST", PATH, { body: payload })
    expect(reply.status, reply.text).toBe(200)
    expect(reply.json).toEqual({
      verified: expect.any(Boolean),
      message: expect.any(String),
      external_id: expect.any(String)
    })
    for (const secret of fakes.secrets()) expect(reply.text).not.toContain(secret)
    return Schema.decodeUnknownSync(Verification)(reply.json)
  })

layer(Live, { excludeTestServices: true, timeout: 90_000 })("verify-s3-access over HTTP", (it) => {
  it.effect("a role that can write, read and delete in both locations is verified", () =>
    Effect.gen(function* () {
      const fakes = yield* StorageFakes
      yield* trustOrganization
      const result = yield* verify(
        body(
          fakes.roles.readWrite,
          { bucket: fakes.buckets.data, path: "tenants/acme/data" },
          { bucket: fakes.buckets.backups, path: "tenants/acme/backups/" }
        )
      )
      expect(result.verified).toBe(true)
      expect(result.message).toContain(fakes.roles.readWrite.roleArn)
      expect(result.message).toContain("s3://customer-data/tenants/acme/data/")
      expect(result.message).toContain("s3://customer-backups/tenants/acme/backups/")
      // The probe objects are gone again.
      expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
      expect(yield* fakes.keys(fakes.buckets.backups)).toEqual([])
    })
  )

  it.effect(
    "roles are assumed with the organization's external id, whatever the caller sends",
    () =>
      Effect.gen(function* () {
        const fakes = yield* StorageFakes
        const externalId = yield* externalIdOfDefault
        expect(externalId).toMatch(/^sluice-[0-9a-f-]{36}$/)
        const locations = [
          { bucket: fakes.buckets.data, path: "d" },
          { bucket: fakes.buckets.backups, path: "b" }
        ] as const
        // A trust policy naming an id the caller chose no longer lets the caller in.
        const chosen = { ...fakes.roles.readWrite, externalId: "chosen-by-the-caller" }
        yield* fakes.trust("readWrite", chosen.externalId)
        const refused = yield* verify(body(chosen, ...locations))
        expect(refused).toMatchObject({ verified: false, external_id: externalId })
        expect(refused.message).toMatch(
          new RegExp(
            `^Could not assume role ${chosen.roleArn} with external id ${externalId}: AccessDenied: `
          )
        )
        expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
        // The organization's id in the trust policy: verified, whatever the descriptor says.
        yield* trustOrganization
        const verified = yield* verify(body(chosen, ...locations))
        expect(verified).toMatchObject({ verified: true, external_id: externalId })
        const { external_id: _, ...without } = body(chosen, ...locations).byo_s3
        expect(yield* verify({ byo_s3: without })).toMatchObject({ verified: true })
      })
  )

  it.effect("a read-only role fails at writing the first probe object", () =>
    Effect.gen(function* () {
      const fakes = yield* StorageFakes
      yield* trustOrganization
      const result = yield* verify(
        body(
          fakes.roles.readOnly,
          { bucket: fakes.buckets.data, path: "data" },
          { bucket: fakes.buckets.backups, path: "backups" }
        )
      )
      expect(result.verified).toBe(false)
      expect(result.message).toMatch(
        new RegExp(
          `^Could not write a probe object to the data location s3://customer-data/data/${probe}: ` +
            "AccessDenied: Access Denied$"
        )
      )
      expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
    })
  )

  it.effect("a missing bucket fails at writing there, naming the location", () =>
    Effect.gen(function* () {
      const fakes = yield* StorageFakes
      yield* trustOrganization
      const missingData = yield* verify(
        body(
          fakes.roles.readWrite,
          { bucket: "no-such-bucket", path: "data" },
          { bucket: fakes.buckets.backups, path: "backups" }
        )
      )
      expect(missingData.verified).toBe(false)
      expect(missingData.message).toMatch(
        new RegExp(
          `^Could not write a probe object to the data location s3://no-such-bucket/data/${probe}: ` +
            "NoSuchBucket: The specified bucket does not exist$"
        )
      )
      const missingBackups = yield* verify(
        body(
          fakes.roles.readWrite,
          { bucket: fakes.buckets.data, path: "data" },
          { bucket: "gone-bucket", path: "backups" }
        )
      )
      expect(missingBackups.verified).toBe(false)
      expect(missingBackups.message).toMatch(
        /^Could not write a probe object to the backups location s3:\/\/gone-bucket\/backups\//
      )
      // The data location passed first and was cleaned up.
      expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
    })
  )

  it.effect("members, cluster keys and anonymous callers may not run the check", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const fakes = yield* StorageFakes
      const payload = body(
        fakes.roles.readWrite,
        { bucket: fakes.buckets.data, path: "d" },
        { bucket: fakes.buckets.backups, path: "b" }
      )
      const member = yield* memberSession("storage-reader@example.com", "a storage reader password")
      const refused = expectError(
        yield* send(member, "POST", PATH, { body: payload }),
        403,
        "forbidden"
      )
      expect(refused.message).toBe("Only organization admins may verify storage.")
      expectError(
        yield* send(adminKeyOf(server), "POST", PATH, { body: payload }),
        403,
        "forbidden"
      )
      expectError(yield* send(undefined, "POST", PATH, { body: payload }), 401, "unauthorized")
      expectError(
        yield* send(
          yield* adminSession,
          "POST",
          "/v1/clusters/verify-s3-access?organization=nowhere",
          {
            body: payload
          }
        ),
        404,
        "not_found"
      )
    })
  )

  it.effect("a request without a complete descriptor is a 400", () =>
    Effect.gen(function* () {
      const admin = yield* adminSession
      const fakes = yield* StorageFakes
      const complete = body(
        fakes.roles.readWrite,
        { bucket: fakes.buckets.data, path: "d" },
        { bucket: fakes.buckets.backups, path: "b" }
      )
      const { backups: _, ...withoutBackups } = complete.byo_s3
      for (const payload of [{}, { byo_s3: withoutBackups }, { byo_s3: "s3://bucket" }])
        expectError(yield* send(admin, "POST", PATH, { body: payload }), 400, "bad_request")
    })
  )
})
