/**
 * Customer object storage on loopback, speaking the real wire protocols so the AWS SDK
 * is exercised unchanged: an STS endpoint (Query protocol, XML answers) that checks the
 * caller's SigV4 signature and each role's external id, and an S3 front that checks the
 * SigV4 signature and session token of every request, refuses writes to read-only roles
 * with S3's `AccessDenied` error, and hands the rest to s3rver (an S3 server from npm).
 */
import * as fs from "node:fs"
import type { AddressInfo } from "node:net"
import { createRequire } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3"
import { Context, Effect, Layer } from "effect"
import type { Scope } from "effect"
import { s3Handler, stsHandler } from "./storageFakesHandlers.js"
import type { FakeRole, Issued } from "./storageFakesHandlers.js"
import { keyId, serve, token } from "./storageFakesWire.js"

export type { FakeRole } from "./storageFakesHandlers.js"

export interface RunningStorageFakes {
  /** The S3 endpoint the service is given (path-style addressing). */
  readonly s3Endpoint: string
  readonly stsEndpoint: string
  /** Requests signed for another region are refused, as S3 and STS do. */
  readonly region: string
  /** The service's own credentials: the only caller STS accepts. */
  readonly caller: { readonly accessKeyId: string; readonly secretAccessKey: string }
  /** `readOnly` may read but not write or delete objects. */
  readonly roles: { readonly readWrite: FakeRole; readonly readOnly: FakeRole }
  /** Makes the trust policy of `role` name `externalId` (as a customer does with theirs). */
  readonly trust: (role: "readWrite" | "readOnly", externalId: string) => Effect.Effect<void>
  /** Two existing buckets; any other bucket name does not exist. */
  readonly buckets: { readonly data: string; readonly backups: string }
  /** Settings that point a sluice server at the fakes (give to `startServer`). */
  readonly env: Readonly<Record<string, string>>
  /** Every credential handed out or accepted so far: none may appear in an answer. */
  readonly secrets: () => ReadonlyArray<string>
  /** Object keys stored in `bucket`, read from the store directly. */
  readonly keys: (bucket: string) => Effect.Effect<ReadonlyArray<string>>
}

/** s3rver ships no types: the two parts of it used here. */
interface S3rverInstance {
  run(): Promise<AddressInfo>
  close(): Promise<void>
}
interface S3rverModule {
  new (options: object): S3rverInstance
}
interface S3rverAccounts {
  DUMMY_ACCOUNT: {
    createKeyPair(accessKeyId: string, secret: string): void
    revokeAccessKey(accessKeyId: string): void
  }
}
const require = createRequire(import.meta.url)
const S3rver: S3rverModule = require("s3rver")
// s3rver knows an access key only once it is in its account registry.
const s3rverAccounts: S3rverAccounts = require("s3rver/lib/models/account")

/** Both fakes and s3rver, closed (and s3rver's directory removed) with the scope. */
export const startStorageFakes = (): Effect.Effect<RunningStorageFakes, never, Scope.Scope> =>
  Effect.gen(function* () {
    const region = "eu-central-1"
    const buckets = { data: "customer-data", backups: "customer-backups" }
    const directory = yield* Effect.acquireRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "sluice-s3rver-"))),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    )
    const s3rver = new S3rver({
      port: 0,
      address: "127.0.0.1",
      silent: true,
      directory,
      configureBuckets: Object.values(buckets).map((name) => ({ name }))
    })
    const address = yield* Effect.acquireRelease(
      Effect.promise(() => s3rver.run()),
      () => Effect.promise(() => s3rver.close())
    )
    const s3rverUrl = `http://127.0.0.1:${address.port}`

    const issued = new Map<string, Issued>()
    yield* Effect.addFinalizer(() =>
      Effect.sync(() => {
        for (const id of issued.keys()) s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey(id)
      })
    )
    const issue = (readOnly: boolean) => {
      const accessKeyId = keyId("ASIA")
      const grant = {
        secret: token(30),
        sessionToken: token(96),
        expires: Date.now() + 900_000,
        readOnly
      }
      issued.set(accessKeyId, grant)
      s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(accessKeyId, grant.secret)
      return { accessKeyId, ...grant }
    }

    const caller = { accessKeyId: keyId("AKIA"), secretAccessKey: token(30) }
    const roles: Record<"readWrite" | "readOnly", { roleArn: string; externalId: string }> = {
      readWrite: {
        roleArn: "arn:aws:iam::111122223333:role/sluice-storage",
        externalId: `ext-${token(9)}`
      },
      readOnly: {
        roleArn: "arn:aws:iam::111122223333:role/sluice-storage-readonly",
        externalId: `ext-${token(9)}`
      }
    }
    const stsEndpoint = yield* serve(stsHandler({ region, caller, roles, issue }))
    const s3Endpoint = yield* serve(s3Handler(region, issued, s3rverUrl))

    // Straight to s3rver with its built-in key, past the front's checks.
    const direct = new S3Client({
      endpoint: s3rverUrl,
      region,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" }
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => direct.destroy()))
    const keys = (bucket: string) =>
      Effect.promise(() => direct.send(new ListObjectsV2Command({ Bucket: bucket }))).pipe(
        Effect.map((listing) =>
          (listing.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [o.Key]))
        )
      )

    return {
      s3Endpoint,
      stsEndpoint,
      region,
      caller,
      roles,
      trust: (role: "readWrite" | "readOnly", externalId: string) =>
        Effect.sync(() => void (roles[role].externalId = externalId)),
      buckets,
      env: {
        SLUICE_S3_ENDPOINT: s3Endpoint,
        SLUICE_STS_ENDPOINT: stsEndpoint,
        SLUICE_S3_REGION: region,
        SLUICE_S3_FORCE_PATH_STYLE: "true",
        AWS_ACCESS_KEY_ID: caller.accessKeyId,
        AWS_SECRET_ACCESS_KEY: caller.secretAccessKey
      },
      secrets: () => [
        caller.accessKeyId,
        caller.secretAccessKey,
        ...[...issued].flatMap(([id, grant]) => [id, grant.secret, grant.sessionToken])
      ],
      keys
    }
  })

/**
 * The fakes as a service, e.g. for an HTTP suite whose server needs `env`:
 * `Layer.unwrapEffect(Effect.map(StorageFakes, (f) => TestServer.layer(freshDataDir(), f.env)))
 *   .pipe(Layer.provideMerge(StorageFakes.layer))`.
 */
export class StorageFakes extends Context.Tag("test/StorageFakes")<
  StorageFakes,
  RunningStorageFakes
>() {
  static readonly layer = Layer.scoped(StorageFakes, startStorageFakes())
}

/** A `byo_s3` descriptor (wire form) for `role` and the two locations. */
export const descriptorOf = (
  role: FakeRole,
  data: { readonly bucket: string; readonly path: string },
  backups: { readonly bucket: string; readonly path: string }
) => ({ role_arn: role.roleArn, external_id: role.externalId, data, backups })

/** The key of a probe object the check writes, as a regular expression source. */
export const PROBE_KEY = "\\.sluice-storage-check-[0-9a-f-]{36}"
