/**
 * `/v1/auth/cli/device…`: the device flow's JSON endpoints for the command line, and the
 * approval page for people. The page answers every outcome with a page (a wrong password
 * is a 401 page with the form again), never with JSON a browser would show raw.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Redacted } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { DeviceStartResponse, DeviceTokenResponse } from "../../domain/api/DeviceLoginApi.js"
import { DeviceAuthorization } from "../../domain/DeviceAuthorization.js"
import { SluiceConfig } from "../config/SluiceConfig.js"
import * as Page from "./DeviceLoginPage.js"

const PAGE_PATH = "/v1/auth/cli/device"
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/

// No script, no framing (the approve button must not be clickjacked), forms post here
// only, and the code in the address does not leak to other sites.
const pageHeaders = {
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store"
}

const page = (html: string, status = 200) =>
  HttpServerResponse.text(html, {
    status,
    contentType: "text/html; charset=utf-8",
    headers: pageHeaders
  })

const present = (value: string | undefined) =>
  value === undefined || value.trim() === "" ? undefined : value.trim()

export const DeviceLoginHttpLive = HttpApiBuilder.group(SluiceApi, "deviceLogin", (handlers) =>
  Effect.gen(function* () {
    const devices = yield* DeviceAuthorization
    const { host, port } = yield* SluiceConfig

    /** Where the command line's user finds the page: the address the command line used. */
    const pageUrl = (request: HttpServerRequest.HttpServerRequest) => {
      const forwarded = request.headers["x-forwarded-host"]
      const named = forwarded ?? request.headers["host"] ?? ""
      const authority = HOST.test(named) ? named : `${host}:${port}`
      const scheme = request.headers["x-forwarded-proto"] === "https" ? "https" : "http"
      return `${scheme}://${authority}${PAGE_PATH}`
    }

    return handlers
      .handle("start", ({ request }) =>
        Effect.gen(function* () {
          const started = yield* devices.start()
          const uri = pageUrl(request)
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
      .handle("page", ({ urlParams }) => {
        const typed = present(urlParams.user_code)
        if (typed === undefined) return Effect.succeed(page(Page.codePage()))
        return devices.awaiting(typed).pipe(
          Effect.map((userCode) => page(Page.signInPage(userCode))),
          Effect.catchTag("DeviceLoginEnded", (ended) =>
            Effect.succeed(
              ended.reason === "access_denied"
                ? page(Page.endedPage(ended.message), 400)
                : page(Page.codePage(ended.message), 400)
            )
          )
        )
      })
      .handle("signIn", ({ payload }) => {
        const userCode = present(payload.user_code)
        if (userCode === undefined) {
          return Effect.succeed(page(Page.codePage("Enter the code first."), 400))
        }
        const email = present(payload.email)
        const password = payload.password
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
        return devices.signIn(userCode, email, Redacted.make(password)).pipe(
          Effect.map((signedIn) =>
            page(
              Page.decisionPage(
                signedIn.userCode,
                signedIn.email,
                Redacted.value(signedIn.pageSession)
              )
            )
          ),
          Effect.catchTags({
            Unauthorized: (refused) =>
              Effect.succeed(
                page(Page.signInPage(userCode, { message: refused.message, email }), 401)
              ),
            DeviceLoginEnded: (ended) => Effect.succeed(page(Page.endedPage(ended.message), 400))
          })
        )
      })
      .handle("decide", ({ payload }) => {
        const userCode = present(payload.user_code)
        const pageToken = present(payload.page_token)
        const decision = payload.decision
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
      })
  })
)
