import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"

export class LoginRequest extends Schema.Class<LoginRequest>("LoginRequest")({
  email: Schema.String,
  password: Schema.Redacted(Schema.String)
}) {}

export class LoginResponse extends Schema.Class<LoginResponse>("LoginResponse")({
  /** A session JWT signed by the service; send it as `Authorization: Bearer <token>`. */
  token: Schema.String,
  email: Schema.String
}) {}

/** Password login for users; OIDC users bring their own access token instead. */
export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/v1/auth/login")
      .setPayload(LoginRequest)
      .addSuccess(LoginResponse)
      .addError(ErrorWire.Unauthorized)
  )
  .annotate(OpenApi.Description, "User sessions") {}
