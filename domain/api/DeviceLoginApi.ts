import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { UserId } from "../Ids.js"

export class DeviceStartResponse extends Schema.Class<DeviceStartResponse>("DeviceStartResponse")({
  /** Secret to the command line: poll `/v1/auth/cli/device/token` with it. */
  device_code: Schema.String,
  /** Shown to the user, who finds it on the approval page. */
  user_code: Schema.String,
  /** The approval page. */
  verification_uri: Schema.String,
  /** The approval page with the user code filled in. */
  verification_uri_complete: Schema.String,
  expires_in: Schema.Int,
  /** Seconds to wait between polls. */
  interval: Schema.Int
}) {}

export class DeviceTokenRequest extends Schema.Class<DeviceTokenRequest>("DeviceTokenRequest")({
  device_code: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256))
}) {}

export class DeviceTokenResponse extends Schema.Class<DeviceTokenResponse>("DeviceTokenResponse")({
  /** A session JWT, as from `POST /v1/auth/login`. */
  token: Schema.String,
  user_id: UserId,
  email: Schema.String
}) {}

const html = HttpApiSchema.Text({ contentType: "text/html" })

const field = Schema.optional(Schema.String)

// What the page's forms post, as a browser does (another content type is a 415 page); a
// field left out is answered on the page.
const signInForm = Schema.Struct({ user_code: field, email: field, password: field }).pipe(
  HttpApiSchema.withEncoding({ kind: "UrlParams" })
)
const decisionForm = Schema.Struct({ user_code: field, page_token: field, decision: field }).pipe(
  HttpApiSchema.withEncoding({ kind: "UrlParams" })
)

/**
 * Command-line login by the device flow (RFC 8628): the command line starts a login and
 * polls; the user signs in on the service's page, sees the code, and approves or denies.
 */
export class DeviceLoginApi extends HttpApiGroup.make("deviceLogin")
  .add(
    HttpApiEndpoint.post("start", "/v1/auth/cli/device/start")
      .addSuccess(DeviceStartResponse)
      .addError(ErrorWire.TooManyRequests)
      .annotate(
        OpenApi.Description,
        "Starts a command-line login. The body is `{}` (or nothing). Show `user_code` and open `verification_uri_complete`; then poll the token endpoint every `interval` seconds. One client address may start 20 logins in 10 minutes; past that, 429 with `Retry-After`. `verification_uri` is under `SLUICE_PUBLIC_URL` when that is set."
      )
  )
  .add(
    HttpApiEndpoint.post("token", "/v1/auth/cli/device/token")
      .setPayload(DeviceTokenRequest)
      .addSuccess(DeviceTokenResponse)
      .addError(ErrorWire.DeviceLoginPending)
      // Before BadRequest, which shares its status (see `ErrorWire.DeviceLoginEnded`).
      .addError(ErrorWire.DeviceLoginEnded)
      .addError(ErrorWire.BadRequest)
      .annotate(
        OpenApi.Description,
        "Polls a command-line login: 428 `authorization_pending` until the user approves, then the token (once); 400 `expired_token` or `access_denied` when it ended without one."
      )
  )
  .add(
    HttpApiEndpoint.get("page", "/v1/auth/cli/device")
      .setUrlParams(Schema.Struct({ user_code: field }))
      .addSuccess(html)
      .annotate(
        OpenApi.Description,
        "The approval page (HTML): asks for the user code if none is given, and for the user's email and password. After 10 codes not found from one client address in 10 minutes, a 429 page with `Retry-After`."
      )
  )
  .add(
    HttpApiEndpoint.post("signIn", "/v1/auth/cli/device")
      .setPayload(signInForm)
      .addSuccess(html)
      .annotate(
        OpenApi.Description,
        "The approval page's sign-in form: shows the code to approve or deny. Failed sign-ins count with those of POST /v1/auth/login (a 429 page past the limit); unknown codes as on the page."
      )
  )
  .add(
    HttpApiEndpoint.post("decide", "/v1/auth/cli/device/decision")
      .setPayload(decisionForm)
      .addSuccess(html)
      .annotate(
        OpenApi.Description,
        "The approval page's decision form (`decision` is `approve` or `deny`)."
      )
  )
  .annotate(OpenApi.Description, "Command-line login (device flow)") {}
