import { HttpApiEndpoint, HttpApiGroup } from "@effect/platform"
import { Schema } from "effect"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok")
}) {}

/** Liveness; needs no credential. */
export class HealthApi extends HttpApiGroup.make("health").add(
  HttpApiEndpoint.get("health", "/health").addSuccess(Health)
) {}
