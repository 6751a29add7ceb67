/**
 * Checks customer-owned object storage before a cluster is created with it: the service
 * assumes the customer's role with the organization's external id, then writes, reads back and deletes
 * a probe object under both the data and the backups locations.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { ByoS3 } from "./api/ClusterModels.js"

/** The answer of `POST /v1/clusters/verify-s3-access`. */
export class StorageVerification extends Schema.Class<StorageVerification>("StorageVerification")({
  verified: Schema.Boolean,
  /** On failure, names the first step that failed and the store's error; never a secret. */
  message: Schema.String,
  /** The organization's external id the role was assumed with (for its trust policy). */
  external_id: Schema.String
}) {}

export class StorageVerifier extends Context.Tag("sluice/StorageVerifier")<
  StorageVerifier,
  {
    /**
     * Never fails: every problem with the role, the buckets or the endpoints is an answer
     * with `verified: false`. Each step is time-bound, so the call is too. The role is
     * assumed with `externalId` (the organization's), never with the descriptor's own.
     */
    readonly verify: (byo: ByoS3, externalId: string) => Effect.Effect<StorageVerification>
  }
>() {}
