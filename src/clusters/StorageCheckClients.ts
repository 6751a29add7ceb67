/**
 * The SDK clients of the storage check, configured from `SluiceConfig.storage`: one STS
 * client for the service's lifetime, one S3 client per check with the role's temporary
 * credentials. Both are destroyed (their sockets closed) with their scope.
 *
 * The SDK's two packages load with the first check: loaded at start they held heap and
 * RSS in a service that never checks storage (most never do).
 */
import type { S3Client } from "@aws-sdk/client-s3"
import type { STSClient } from "@aws-sdk/client-sts"
import { Effect, Option } from "effect"
import type { SluiceConfigShape } from "../config/SluiceConfig.js"

export type StorageSettings = SluiceConfigShape["storage"]

/** What the SDK signs with (the service's own keys or a role's temporary ones). */
export interface AwsCredentials {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string
}

const endpointOf = (endpoint: Option.Option<string>) =>
  Option.match(endpoint, { onNone: () => ({}), onSome: (url) => ({ endpoint: url }) })

/** The SDK's S3 and STS packages, imported once, on first use. */
export const sdk = Effect.runSync(
  Effect.cached(
    Effect.promise(async () => {
      const [s3, sts] = await Promise.all([
        import("@aws-sdk/client-s3"),
        import("@aws-sdk/client-sts")
      ])
      return { s3, sts }
    })
  )
)

type Sdk = Effect.Effect.Success<typeof sdk>

const scoped = <C extends { destroy(): void }>(make: (loaded: Sdk) => C) =>
  Effect.acquireRelease(
    Effect.map(sdk, (loaded) => {
      // sluice runs on Node 20 by design (NOTES.md); the SDK's notice that its releases
      // after January 2027 need Node 22 would otherwise print on every start.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true"
      return make(loaded)
    }),
    (client) => Effect.sync(() => client.destroy())
  )

/** Without `credentials`, the SDK's default chain finds the service's own. */
export const stsClient = (settings: StorageSettings, credentials: Option.Option<AwsCredentials>) =>
  scoped(
    ({ sts }): STSClient =>
      new sts.STSClient({
        region: settings.region,
        maxAttempts: 2,
        ...endpointOf(settings.stsEndpoint),
        ...Option.match(credentials, { onNone: () => ({}), onSome: (c) => ({ credentials: c }) })
      })
  )

export const s3Client = (settings: StorageSettings, credentials: AwsCredentials) =>
  scoped(
    ({ s3 }): S3Client =>
      new s3.S3Client({
        region: settings.region,
        credentials,
        forcePathStyle: settings.forcePathStyle,
        // A bucket in another AWS region answers with a redirect the SDK can follow.
        followRegionRedirects: true,
        // Many S3-compatible stores do not know the SDK's newer default checksums.
        requestChecksumCalculation: "WHEN_REQUIRED",
        responseChecksumValidation: "WHEN_REQUIRED",
        maxAttempts: 2,
        ...endpointOf(settings.s3Endpoint)
      })
  )
