/**
 * `StorageVerifier` on the AWS SDK: STS AssumeRole with the organization's external id, then
 * a probe object written, read back and deleted under the data and the backups location
 * with the temporary credentials. Endpoints and region come from `SLUICE_S3_*` and
 * `SLUICE_STS_ENDPOINT`, so S3-compatible stores work too. The service's own credentials
 * for STS are `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` (`AWS_SESSION_TOKEN`) when
 * set, else the SDK's default chain (profile files, container or instance role).
 */
import { Config, Effect, Layer, Option, Redacted, Scope } from "effect"
import type { ByoS3 } from "../../domain/api/ClusterModels.js"
import { StorageVerification, StorageVerifier } from "../../domain/StorageVerifier.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import { s3Client, sdk, stsClient } from "./StorageCheckClients.js"
import type { AwsCredentials, StorageSettings } from "./StorageCheckClients.js"
import { probeLocation } from "./StorageCheckProbe.js"
import { StepFailed, locationUrl, step, withoutSecrets } from "./StorageCheckSteps.js"

export interface ServiceCredentials {
  readonly accessKeyId: Redacted.Redacted
  readonly secretAccessKey: Redacted.Redacted
  readonly sessionToken: Option.Option<Redacted.Redacted>
}

const serviceCredentials = Config.option(
  Config.all({
    accessKeyId: Config.redacted("AWS_ACCESS_KEY_ID"),
    secretAccessKey: Config.redacted("AWS_SECRET_ACCESS_KEY"),
    sessionToken: Config.option(Config.redacted("AWS_SESSION_TOKEN"))
  })
)

const sdkCredentials = (credentials: ServiceCredentials): AwsCredentials => ({
  accessKeyId: Redacted.value(credentials.accessKeyId),
  secretAccessKey: Redacted.value(credentials.secretAccessKey),
  ...Option.match(credentials.sessionToken, {
    onNone: () => ({}),
    onSome: (token) => ({ sessionToken: Redacted.value(token) })
  })
})

const secretsOf = (c: AwsCredentials) => [c.accessKeyId, c.secretAccessKey, c.sessionToken ?? ""]

/** The shortest session STS grants; the check needs seconds. */
const sessionSeconds = 900

export const makeStorageVerifier = (
  settings: StorageSettings,
  credentials: Option.Option<ServiceCredentials>
) =>
  Effect.gen(function* () {
    const own = Option.map(credentials, sdkCredentials)
    // Made with the first check (the SDK loads then), kept for the verifier's lifetime.
    const lifetime = yield* Effect.scope
    const stsOnce = yield* Effect.cached(Scope.extend(stsClient(settings, own), lifetime))
    const ownSecrets = Option.match(own, { onNone: () => [], onSome: secretsOf })

    const assumeRole = (byo: ByoS3, externalId: string) =>
      Effect.zip(stsOnce, sdk).pipe(
        Effect.flatMap(([sts, { sts: commands }]) =>
          step(
            `Could not assume role ${byo.role_arn} with external id ${externalId}`,
            (abortSignal) =>
              sts.send(
                new commands.AssumeRoleCommand({
                  RoleArn: byo.role_arn,
                  ExternalId: externalId,
                  RoleSessionName: "sluice-storage-check",
                  DurationSeconds: sessionSeconds
                }),
                { abortSignal }
              )
          )
        ),
        Effect.flatMap(({ Credentials: c }) =>
          c?.AccessKeyId && c.SecretAccessKey
            ? Effect.succeed<AwsCredentials>({
                accessKeyId: c.AccessKeyId,
                secretAccessKey: c.SecretAccessKey,
                ...(c.SessionToken ? { sessionToken: c.SessionToken } : {})
              })
            : Effect.fail(
                new StepFailed({
                  message: `Could not assume role ${byo.role_arn} with external id ${externalId}: the answer carried no credentials`
                })
              )
        )
      )

    const verify = Effect.fn("StorageVerifier.verify")(function* (byo: ByoS3, externalId: string) {
      const secrets: Array<string> = [...ownSecrets]
      const outcome = yield* Effect.gen(function* () {
        const temporary = yield* assumeRole(byo, externalId)
        secrets.push(...secretsOf(temporary))
        const s3 = yield* s3Client(settings, temporary)
        yield* probeLocation(s3, "data", byo.data)
        yield* probeLocation(s3, "backups", byo.backups)
      }).pipe(Effect.scoped, Effect.either)
      if (outcome._tag === "Left") {
        const message = withoutSecrets(outcome.left.message, secrets)
        yield* Effect.logInfo("storage check failed").pipe(Effect.annotateLogs({ message }))
        return new StorageVerification({ verified: false, message, external_id: externalId })
      }
      return new StorageVerification({
        verified: true,
        message:
          `Assumed role ${byo.role_arn} and wrote, read back and deleted a probe object under ` +
          `${locationUrl(byo.data)} and ${locationUrl(byo.backups)}.`,
        external_id: externalId
      })
    })

    return StorageVerifier.of({ verify })
  })

/** Reads `SluiceConfig.storage` and the optional `AWS_*` credentials while it is built. */
export const StorageVerifierLive = Layer.scoped(
  StorageVerifier,
  Effect.gen(function* () {
    const { storage } = yield* SluiceConfig
    return yield* makeStorageVerifier(storage, yield* serviceCredentials)
  })
)
