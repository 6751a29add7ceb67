import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { DeviceDecision } from "../DeviceAuthorization.js"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
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

const UserCode = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(64))

/** A login awaiting approval, as the console shows it before the user decides. */
export class DeviceLoginAwaiting extends Schema.Class<DeviceLoginAwaiting>("DeviceLoginAwaiting")({
  user_code: Schema.String,
  /** The address that started the login, as the service saw it. */
  client_address: Schema.String,
  /**
   * The program that started it, as it named itself (`x-service-client`, else its user
   * agent's product; nothing checks it): `cli`, `curl`… Null when it named none.
   */
  client_name: Schema.NullOr(Schema.String),
  /** That program's version (`x-service-client-version`, else its user agent's), or null. */
  client_version: Schema.NullOr(Schema.String),
  started_at: Schema.DateTimeUtc,
  /** Seconds left to decide. */
  expires_in: Schema.Int
}) {}

export class DeviceApprovalRequest extends Schema.Class<DeviceApprovalRequest>(
  "DeviceApprovalRequest"
)({
  user_code: UserCode,
  decision: DeviceDecision
}) {}

export class DeviceApprovalResponse extends Schema.Class<DeviceApprovalResponse>(
  "DeviceApprovalResponse"
)({
  decision: DeviceDecision
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
  .add(
    HttpApiEndpoint.get("pending", "/v1/auth/cli/device/pending")
      .setUrlParams(Schema.Struct({ user_code: UserCode }))
      .addSuccess(DeviceLoginAwaiting)
      // Before BadRequest, which shares its status (see `ErrorWire.DeviceLoginEnded`).
      .addError(ErrorWire.DeviceLoginEnded)
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.Forbidden)
      .addError(ErrorWire.TooManyRequests)
      .middleware(Authentication)
      .annotate(
        OpenApi.Description,
        "For a signed-in user (a session token; an API key is a 403): the login awaiting approval under `user_code`, with the address and the program (as it named itself) that started it. 400 `expired_token` for a code unknown, expired or used; codes not found count per client address as on the approval page."
      )
  )
  .add(
    HttpApiEndpoint.post("approve", "/v1/auth/cli/device/approval")
      .setPayload(DeviceApprovalRequest)
      .addSuccess(DeviceApprovalResponse)
      .addError(ErrorWire.DeviceLoginEnded)
      .addError(ErrorWire.BadRequest)
      .addError(ErrorWire.Forbidden)
      .addError(ErrorWire.TooManyRequests)
      .middleware(Authentication)
      .annotate(
        OpenApi.Description,
        "A signed-in user's decision (`approve` or `deny`) on a login awaiting approval, as JSON with the session token in the Authorization header (what the console sends); an approved login's poll then hands the command line a session of this user. An API key is a 403."
      )
  )
  .annotate(OpenApi.Description, "Command-line login (device flow)") {}
