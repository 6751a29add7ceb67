/**
 * The whole HTTP contract. A client or an embedding program imports this and
 * `domain/` only. Every endpoint may fail with any of the `ErrorWire` errors.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { ErrorWire } from "./Errors.js"
import { AuthApi } from "./api/AuthApi.js"
import { HealthApi } from "./api/HealthApi.js"
import { KeysApi } from "./api/KeysApi.js"
import { OrganizationsApi } from "./api/OrganizationsApi.js"

export class SluiceApi extends HttpApi.make("sluice")
  .add(HealthApi)
  .add(AuthApi)
  .add(OrganizationsApi)
  .add(KeysApi)
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Unauthorized)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.Conflict)
  .addError(ErrorWire.PayloadTooLarge)
  .addError(ErrorWire.UnsupportedMediaType)
  .addError(ErrorWire.TooManyRequests)
  .addError(ErrorWire.Internal)
  .addError(ErrorWire.NotImplemented)
  .addError(ErrorWire.Unavailable)
  .annotate(OpenApi.Title, "sluice")
  .annotate(OpenApi.Version, "1.0.0")
  .annotate(
    OpenApi.Description,
    "Ingest JSON records into tables and query them with read-only SQL."
  ) {}
