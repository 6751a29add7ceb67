/**
 * `/v1/auth/cli/device…`: the device flow's JSON endpoints for the command line and for
 * the console (a signed-in session deciding by JSON with its bearer token, which another
 * site's form cannot send), and the approval page for people. The page answers every
 * outcome with a page (a wrong password is a 401 page with the form again), never with
 * JSON a browser would show raw.
 */
import { HttpApiBuilder } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { DateTime, Effect, Option, Redacted } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { requestScopes } from "../http/RequestScope.js"
import {
  DeviceApprovalResponse,
  DeviceLoginAwaiting,
  DeviceStartResponse,
  DeviceTokenResponse
} from "../../domain/api/DeviceLoginApi.js"
import { DeviceAuthorization } from "../../domain/DeviceAuthorization.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import * as Page from "./DeviceLoginPage.js"
import { clientAddress } from "./http/ClientAddress.js"
import { clientSoftwareOf } from "./http/ClientSoftware.js"
import { formOf, notAForm, page, pageUrl, present, slowedDown } from "./DeviceLoginPageHttp.js"
import type { Field } from "./DeviceLoginPageHttp.js"

export const DeviceLoginHttpLive = HttpApiBuilder.group(SluiceApi, "deviceLogin", (handlers) =>
  Effect.gen(function* () {
    const devices = yield* DeviceAuthorization
    const config = yield* SluiceConfig
    const clientOf = (request: HttpServerRequest.HttpServerRequest) =>
      clientAddress(request, config.trustProxy)

    const signIn = (field: Field, client: string) => {
      const userCode = present(field("user_code"))
      if (userCode === undefined) {
        return Effect.succeed(page(Page.codePage("Enter the code first."), 400))
      }
      const email = present(field("email"))
      const password = field("password")
      if (email === undefined || password === undefined || password === "") {
        return Effect.succeed(
          page(
            Page.signInPage(userCode, {
              message: "Enter your email and password.",
              ...(email === undefined ? {} : { email })
            }),
            400
          )
        )
      }
      return devices.signIn(userCode, email, Redacted.make(password), client).pipe(
        Effect.map((signedIn) =>
          page(
            Page.decisionPage(
              signedIn.userCode,
              signedIn.email,
              Redacted.value(signedIn.pageSession),
              signedIn.request
            )
          )
        ),
        Effect.catchTags({
          Unauthorized: (refused) =>
            Effect.succeed(
              page(Page.signInPage(userCode, { message: refused.message, email }), 401)
            ),
          DeviceLoginEnded: (ended) => Effect.succeed(page(Page.endedPage(ended.message), 400)),
          TooManyRequests: (slowDown) =>
            Effect.succeed(
              slowedDown(
                page(Page.signInPage(userCode, { message: slowDown.message, email }), 429),
                slowDown
              )
            )
        })
      )
    }

    const decide = (field: Field) => {
      const userCode = present(field("user_code"))
      const pageToken = present(field("page_token"))
      const decision = field("decision")
      if (
        userCode === undefined ||
        pageToken === undefined ||
        (decision !== "approve" && decision !== "deny")
      ) {
        return Effect.succeed(
          page(Page.codePage("The form was incomplete: open the login link again."), 400)
        )
      }
      return devices.decide(userCode, Redacted.make(pageToken), decision).pipe(
        Effect.map((decided) => page(Page.decidedPage(decided))),
        Effect.catchTags({
          Unauthorized: (refused) =>
            Effect.succeed(page(Page.signInPage(userCode, { message: refused.message }), 401)),
          DeviceLoginEnded: (ended) => Effect.succeed(page(Page.endedPage(ended.message), 400))
        })
      )
    }

    // The calling user (an API key is refused here; the capability checks the rest).
    const currentUser = (yield* requestScopes).user

    return handlers
      .handle("pending", ({ request, urlParams }) =>
        Effect.gen(function* () {
          const awaiting = yield* devices.request(
            urlParams.user_code,
            yield* currentUser,
            clientOf(request)
          )
          const now = yield* DateTime.now
          return new DeviceLoginAwaiting({
            user_code: awaiting.userCode,
            client_address: awaiting.client,
            client_name: awaiting.clientName,
            client_version: awaiting.clientVersion,
            started_at: DateTime.unsafeMake(awaiting.startedAt),
            expires_in: Math.max(
              0,
              Math.round((awaiting.expiresAt - DateTime.toEpochMillis(now)) / 1000)
            )
          })
        })
      )
      .handle("approve", ({ request, payload }) =>
        Effect.gen(function* () {
          const decision = yield* devices.decideAs(
            payload.user_code,
            yield* currentUser,
            payload.decision,
            clientOf(request)
          )
          return new DeviceApprovalResponse({ decision })
        })
      )
      .handle("start", ({ request }) =>
        Effect.gen(function* () {
          const started = yield* devices.start(
            clientOf(request),
            clientSoftwareOf(request.headers) ?? undefined
          )
          const uri = pageUrl(request, config, `${config.host}:${config.port}`)
          return new DeviceStartResponse({
            device_code: started.deviceCode,
            user_code: started.userCode,
            verification_uri: uri,
            verification_uri_complete: `${uri}?user_code=${encodeURIComponent(started.userCode)}`,
            expires_in: started.expiresInSeconds,
            interval: started.intervalSeconds
          })
        })
      )
      .handle("token", ({ payload }) =>
        Effect.map(
          devices.poll(payload.device_code),
          (granted) =>
            new DeviceTokenResponse({
              token: granted.token,
              user_id: granted.userId,
              email: granted.email
            })
        )
      )
      .handle("page", ({ request, urlParams }) => {
        const typed = present(urlParams.user_code)
        if (typed === undefined) return Effect.succeed(page(Page.codePage()))
        return devices.awaiting(typed, clientOf(request)).pipe(
          Effect.map((userCode) => page(Page.signInPage(userCode))),
          Effect.catchTags({
            DeviceLoginEnded: (ended) =>
              Effect.succeed(
                ended.reason === "access_denied"
                  ? page(Page.endedPage(ended.message), 400)
                  : page(Page.codePage(ended.message), 400)
              ),
            TooManyRequests: (slowDown) =>
              Effect.succeed(slowedDown(page(Page.codePage(slowDown.message), 429), slowDown))
          })
        )
      })
      .handleRaw("signIn", ({ request }) =>
        Effect.flatMap(formOf(request), (form) =>
          Option.isNone(form) ? Effect.succeed(notAForm) : signIn(form.value, clientOf(request))
        )
      )
      .handleRaw("decide", ({ request }) =>
        Effect.flatMap(formOf(request), (form) =>
          Option.isNone(form) ? Effect.succeed(notAForm) : decide(form.value)
        )
      )
  })
)
