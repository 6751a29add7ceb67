/**
 * The SDK clients of the storage check, configured from `SluiceConfig.storage`: one STS
 * client for the service's lifetime, one S3 client per check with the role's temporary
 * credentials. Both are destroyed (their sockets closed) with their scope.
 */
import { S3Client } from "@aws-sdk/client-s3"
import { STSClient } from "@aws-sdk/client-sts"
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

const scoped = <C extends { destroy(): void }>(make: () => C) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      // sluice runs on Node 20 by design (NOTES.md); the SDK's notice that its releases
      // after January 2027 need Node 22 would otherwise print on every start.
      process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true"
      return make()
    }),
    (client) => Effect.sync(() => client.destroy())
  )

/** Without `credentials`, the SDK's default chain finds the service's own. */
export const stsClient = (settings: StorageSettings, credentials: Option.Option<AwsCredentials>) =>
  scoped(
    () =>
      new STSClient({
        region: settings.region,
        maxAttempts: 2,
        ...endpointOf(settings.stsEndpoint),
        ...Option.match(credentials, { onNone: () => ({}), onSome: (c) => ({ credentials: c }) })
      })
  )

export const s3Client = (settings: StorageSettings, credentials: AwsCredentials) =>
  scoped(
    () =>
      new S3Client({
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
