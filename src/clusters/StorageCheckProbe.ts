/**
 * Writes, reads back and deletes one probe object under a customer location, with the
 * assumed role's credentials. A probe that was written is deleted even when reading it
 * back fails, so a failed check leaves nothing behind where it can.
 */
import type { S3Client } from "@aws-sdk/client-s3"
import { Effect } from "effect"
import type { S3Location } from "../../domain/api/ClusterModels.js"
import { sdk } from "./StorageCheckClients.js"
import { StepFailed, probeKey, step } from "./StorageCheckSteps.js"

export const probeLocation = (s3: S3Client, label: "data" | "backups", location: S3Location) =>
  Effect.gen(function* () {
    const { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } = (yield* sdk).s3
    const id = crypto.randomUUID()
    const key = probeKey(location.path, id)
    const where = `the ${label} location s3://${location.bucket}/${key}`
    const object = { Bucket: location.bucket, Key: key }
    const content = `sluice storage check ${id}`

    yield* step(`Could not write a probe object to ${where}`, (abortSignal) =>
      s3.send(new PutObjectCommand({ ...object, Body: content, ContentType: "text/plain" }), {
        abortSignal
      })
    )
    const remove = (describe: string) =>
      step(describe, (abortSignal) => s3.send(new DeleteObjectCommand(object), { abortSignal }))

    yield* step(`Could not read the probe object back from ${where}`, async (abortSignal) => {
      const answer = await s3.send(new GetObjectCommand(object), { abortSignal })
      return answer.Body === undefined ? "" : await answer.Body.transformToString()
    }).pipe(
      Effect.filterOrFail(
        (readBack) => readBack === content,
        () =>
          new StepFailed({
            message: `The probe object read back from ${where} differs from what was written`
          })
      ),
      Effect.tapError(() => remove("cleanup").pipe(Effect.ignore))
    )
    yield* remove(`Could not delete the probe object ${where}`)
  })
