import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"

export class LoginRequest extends Schema.Class<LoginRequest>("LoginRequest")({
  email: Schema.String,
  password: Schema.Redacted(Schema.String)
}) {}

export class LoginResponse extends Schema.Class<LoginResponse>("LoginResponse")({
  /** A session JWT signed by the service; send it as `Authorization: Bearer <token>`. */
  token: Schema.String,
  email: Schema.String
}) {}

export class SignedOut extends Schema.Class<SignedOut>("SignedOut")({
  signed_out: Schema.Literal(true)
}) {}

export class ChangePasswordRequest extends Schema.Class<ChangePasswordRequest>(
  "ChangePasswordRequest"
)({
  current_password: Schema.Redacted(Schema.String),
  new_password: Schema.Redacted(Schema.String.pipe(Schema.minLength(12)))
}) {}

/** Password login for users; OIDC users bring their own access token instead. */
export class AuthApi extends HttpApiGroup.make("auth")
  .add(
    HttpApiEndpoint.post("login", "/v1/auth/login")
      .setPayload(LoginRequest)
      .addSuccess(LoginResponse)
      .addError(ErrorWire.Unauthorized)
      .addError(ErrorWire.TooManyRequests)
      .annotate(
        OpenApi.Description,
        "Email and password for a session token (12 hours). Failed sign-ins are limited per account and per client address (10 and 30 per 15 minutes, the device login page's included): past that, 429 with `Retry-After`, even for the right password."
      )
  )
  .add(
    HttpApiEndpoint.post("logout", "/v1/auth/logout")
      .addSuccess(SignedOut)
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.Forbidden)
      .middleware(Authentication)
      .annotate(
        OpenApi.Description,
        "Signs out: the session token sent ends at once, everywhere it was copied. The body is `{}` (or nothing). An OAuth access token is ended by its issuer, not here (400); an API key is revoked with DELETE /v1/keys (403)."
      )
  )
  .add(
    HttpApiEndpoint.post("changePassword", "/v1/auth/password")
      .setPayload(ChangePasswordRequest)
      .addSuccess(LoginResponse)
      .addError(ErrorWire.Unauthorized)
      .addError(ErrorWire.Forbidden)
      .addError(ErrorWire.TooManyRequests)
      .middleware(Authentication)
      .annotate(
        OpenApi.Description,
        "Changes the signed-in user's password (`new_password` at least 12 characters): every session of the user ends, and the answer is a new session token. A wrong `current_password` is a 401 and counts as a failed sign-in."
      )
  )
  .annotate(OpenApi.Description, "User sessions") {}
