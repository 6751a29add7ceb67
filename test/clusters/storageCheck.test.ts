/**
 * verify-s3-access against loopback STS and S3 that speak the real protocols: the role
 * is assumed with the external id, a probe object goes through both locations, and every
 * failure names its step without giving away a credential.
 */
import * as http from "node:http"
import { describe, expect, it, layer } from "@effect/vitest"
import {
  ConfigProvider,
  Context,
  Deferred,
  Effect,
  Exit,
  Fiber,
  Layer,
  Schema,
  TestClock,
  TestContext
} from "effect"
import { ByoS3, S3Location } from "../../domain/api/ClusterModels.js"
import { StorageVerifier } from "../../domain/StorageVerifier.js"
import { StorageVerifierLive } from "../../src/clusters/StorageCheck.js"
import { SluiceConfig } from "../../src/config/SluiceConfig.js"
import { PROBE_KEY, StorageFakes as Fakes, descriptorOf } from "../support/storageFakes.js"

const verifierWith = (env: Readonly<Record<string, string>>) =>
  StorageVerifierLive.pipe(
    Layer.provide(SluiceConfig.layer),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))))
  )

const Live = Layer.unwrapEffect(Effect.map(Fakes, (fakes) => verifierWith(fakes.env))).pipe(
  Layer.provideMerge(Fakes.layer)
)

const byo = (...args: Parameters<typeof descriptorOf>) =>
  Schema.decodeSync(ByoS3)(descriptorOf(...args))

const probe = PROBE_KEY

/**
 * Runs the check as the organization whose external id is `externalId` (by default the
 * one the role trusts) and asserts that no credential leaked into its message.
 */
const check = (request: ByoS3, externalId?: string) =>
  Effect.gen(function* () {
    const fakes = yield* Fakes
    const trusted = Object.values(fakes.roles).find((r) => r.roleArn === request.role_arn)
    const result = yield* (yield* StorageVerifier).verify(
      request,
      externalId ?? trusted?.externalId ?? ""
    )
    for (const secret of fakes.secrets()) expect(result.message).not.toContain(secret)
    return result
  })

layer(Live, { excludeTestServices: true, timeout: 60_000 })("verify-s3-access", (it) => {
  it.effect(
    "a role with read and write access to both buckets is verified and nothing is left behind",
    () =>
      Effect.gen(function* () {
        const fakes = yield* Fakes
        const result = yield* check(
          byo(
            fakes.roles.readWrite,
            { bucket: fakes.buckets.data, path: "tenants/acme corp/données/" },
            { bucket: fakes.buckets.backups, path: "/tenants/acme/backups" }
          )
        )
        expect(result.verified).toBe(true)
        expect(result.message).toContain(fakes.roles.readWrite.roleArn)
        expect(result.message).toContain("s3://customer-data/tenants/acme corp/données/")
        expect(result.message).toContain("s3://customer-backups/tenants/acme/backups/")
        expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
        expect(yield* fakes.keys(fakes.buckets.backups)).toEqual([])
      })
  )

  it.effect("the organization's external id is the one used, never the descriptor's", () =>
    Effect.gen(function* () {
      const fakes = yield* Fakes
      const role = fakes.roles.readWrite
      const locations = [
        { bucket: fakes.buckets.data, path: "d" },
        { bucket: fakes.buckets.backups, path: "b" }
      ] as const
      // The descriptor names the id the role trusts; the organization's is another.
      const refused = yield* check(byo(role, ...locations), "sluice-another-organization")
      expect(refused).toMatchObject({ verified: false, external_id: "sluice-another-organization" })
      expect(refused.message).toBe(
        `Could not assume role ${role.roleArn} with external id sluice-another-organization: ` +
          "AccessDenied: User: arn:aws:iam::123456789012:user/sluice-service " +
          `is not authorized to perform: sts:AssumeRole on resource: ${role.roleArn}`
      )
      // The descriptor names another id; the organization's is the one the role trusts.
      const chosen = { ...role, externalId: "chosen-by-the-caller" }
      const verified = yield* check(byo(chosen, ...locations), role.externalId)
      expect(verified).toMatchObject({ verified: true, external_id: role.externalId })
    })
  )

  it.effect("a missing backups bucket fails at writing there, after the data location passed", () =>
    Effect.gen(function* () {
      const fakes = yield* Fakes
      const result = yield* check(
        byo(
          fakes.roles.readWrite,
          { bucket: fakes.buckets.data, path: "data" },
          { bucket: "no-such-bucket", path: "backups" }
        )
      )
      expect(result.verified).toBe(false)
      expect(result.message).toMatch(
        new RegExp(
          `^Could not write a probe object to the backups location s3://no-such-bucket/backups/${probe}: ` +
            "NoSuchBucket: The specified bucket does not exist$"
        )
      )
      expect(yield* fakes.keys(fakes.buckets.data)).toEqual([])
    })
  )

  it.effect("a read-only role fails at writing the first probe with S3's AccessDenied", () =>
    Effect.gen(function* () {
      const fakes = yield* Fakes
      const result = yield* check(
        byo(
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
    })
  )

  it.effect("the service's own credentials are what STS checks: a wrong secret is refused", () =>
    Effect.gen(function* () {
      const fakes = yield* Fakes
      const context = yield* Layer.build(
        verifierWith({ ...fakes.env, AWS_SECRET_ACCESS_KEY: "wrong-secret-of-the-service" })
      )
      const request = byo(
        fakes.roles.readWrite,
        { bucket: fakes.buckets.data, path: "d" },
        { bucket: fakes.buckets.backups, path: "b" }
      )
      const result = yield* Context.get(context, StorageVerifier).verify(
        request,
        fakes.roles.readWrite.externalId
      )
      expect(result.verified).toBe(false)
      expect(result.message).toMatch(
        new RegExp(
          `^Could not assume role ${request.role_arn} with external id ext-[\\w-]+: SignatureDoesNotMatch: `
        )
      )
      expect(result.message).not.toContain("wrong-secret-of-the-service")
    }).pipe(Effect.scoped)
  )
})

describe("verify-s3-access time bound", () => {
  // `layer(...)` above replaces the module's `it.scoped` with one without test services
  // (@effect/vitest 0.30), so the TestClock is provided here.
  it.scopedLive(
    "an STS endpoint that never answers ends the check after 10 s, naming the step",
    () =>
      Effect.gen(function* () {
        const asked = yield* Deferred.make<void>()
        const silent = http.createServer(() => Deferred.unsafeDone(asked, Exit.void))
        yield* Effect.acquireRelease(
          Effect.async<void>((resume) => {
            silent.listen(0, "127.0.0.1", () => resume(Effect.void))
          }),
          () => Effect.sync(() => (silent.closeAllConnections(), silent.close()))
        )
        const address = silent.address()
        if (address === null || typeof address === "string") return yield* Effect.die("no port")
        const context = yield* Layer.build(
          verifierWith({
            SLUICE_STS_ENDPOINT: `http://127.0.0.1:${address.port}`,
            AWS_ACCESS_KEY_ID: "AKIAEXAMPLEEXAMPLE",
            AWS_SECRET_ACCESS_KEY: "secret-of-the-service"
          })
        )
        const request = new ByoS3({
          role_arn: "arn:aws:iam::111122223333:role/r",
          external_id: "x",
          data: new S3Location({ bucket: "d", path: "" }),
          backups: new S3Location({ bucket: "b", path: "" })
        })
        const fiber = yield* Effect.fork(
          Context.get(context, StorageVerifier).verify(request, "sluice-the-organization")
        )
        // The step's deadline is set once the request is on its way.
        yield* Deferred.await(asked)
        yield* TestClock.adjust("9 seconds")
        expect(fiber.unsafePoll()).toBeNull()
        yield* TestClock.adjust("1 second")
        const result = yield* Fiber.join(fiber)
        expect(result).toMatchObject({
          verified: false,
          message: `Could not assume role ${request.role_arn} with external id sluice-the-organization: no answer within 10s`
        })
      }).pipe(Effect.provide(TestContext.TestContext))
  )
})
