/**
 * The metrics-app's way in: Prometheus remote write 1.0 bodies (a snappy-compressed
 * `WriteRequest`) stored as series of a cluster's database, readable through `PromQL`.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type { AppParams } from "./AppAccess.js"
import type {
  AppNotInstalled,
  BadRequest,
  ClusterPaused,
  DatabaseNotFound,
  Forbidden,
  InvalidDatabaseName,
  NotFound,
  PayloadTooLarge,
  Unavailable
} from "./Errors.js"
import type { Caller } from "./Identity.js"

export class RemoteWrite extends Context.Tag("sluice/RemoteWrite")<
  RemoteWrite,
  {
    /** The largest body, uncompressed, a write may carry (`SLUICE_METRICS_MAX_WRITE_BYTES`). */
    readonly limit: number
    /**
     * Stores one write's samples in the database `where` names, once `caller` may insert
     * there and the metrics-app is installed; answers how many samples it held. Nothing
     * is stored from a body that does not decode whole. Exemplars and native-histogram
     * samples are not stored (the service's log counts them).
     */
    readonly write: (
      caller: Caller,
      where: AppParams,
      body: Uint8Array
    ) => Effect.Effect<
      number,
      | BadRequest
      | Forbidden
      | NotFound
      | AppNotInstalled
      | InvalidDatabaseName
      | DatabaseNotFound
      | PayloadTooLarge
      | ClusterPaused
      | Unavailable
    >
  }
>() {}
