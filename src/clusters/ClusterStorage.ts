/**
 * The customer-owned storage of a create request: the spec names it `byo_s3`, `rtree`
 * sends `s3_storage`; either is stored and shown. Given both, they must name the same
 * buckets, paths and role (the external id is never the caller's). What cannot be
 * honoured is refused by name rather than dropped.
 */
import { Effect } from "effect"
import type { ByoS3, CreateClusterRequest } from "../../domain/api/ClusterModels.js"
import { BadRequest } from "../../domain/Errors.js"

const sameStorage = (a: ByoS3, b: ByoS3) =>
  a.role_arn === b.role_arn &&
  a.data.bucket === b.data.bucket &&
  a.data.path === b.data.path &&
  a.backups.bucket === b.backups.bucket &&
  a.backups.path === b.backups.path

/** The request's descriptor, if any; a 400 naming the field it cannot take. */
export const requestedStorage = (
  request: CreateClusterRequest
): Effect.Effect<ByoS3 | undefined, BadRequest> => {
  if (request.database_s3_access !== undefined) {
    return Effect.fail(
      new BadRequest({
        message:
          "database_s3_access is not supported: databases do not get buckets of their own through the cluster.",
        hint: "Leave it out. Give a database its storage with s3_storage on POST /v1/databases, or the cluster's with byo_s3 (or s3_storage) here."
      })
    )
  }
  const { byo_s3, s3_storage } = request
  if (byo_s3 !== undefined && s3_storage !== undefined && !sameStorage(byo_s3, s3_storage)) {
    return Effect.fail(
      new BadRequest({
        message: "byo_s3 and s3_storage describe different storage.",
        hint: "Send the descriptor once, as byo_s3 or as s3_storage."
      })
    )
  }
  return Effect.succeed(byo_s3 ?? s3_storage)
}
