/** The request log's services: the store, the write queue and retention. */
import { Layer } from "effect"
import { RequestLogQueue } from "./RequestLogQueue.js"
import { RequestLogStore } from "./RequestLogStore.js"
import { RetentionLive } from "./Retention.js"

export const RequestLogsLive = Layer.mergeAll(RequestLogQueue.Default, RetentionLive).pipe(
  Layer.provideMerge(RequestLogStore.Default)
)
