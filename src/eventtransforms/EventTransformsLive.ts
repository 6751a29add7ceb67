/** The event transforms, one module per format (pure functions, so a constant layer). */
import { Layer } from "effect"
import { EventTransforms } from "../../domain/EventTransforms.js"
import { cloudAudit } from "./CloudAudit.js"
import { cloudLogs } from "./CloudLogs.js"
import { deliveryStream } from "./DeliveryStream.js"

export const EventTransformsLive = Layer.succeed(
  EventTransforms,
  EventTransforms.of({ cloudLogs, cloudAudit, deliveryStream })
)
