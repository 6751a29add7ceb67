/**
 * Every collector answer is the protocol's `{text, code}` with its HTTP status
 * (domain/EventCollector.ts), never the service's `{error, message, hint}`: HEC senders
 * read `code` (splunk-logging treats anything but 0 as a failure) and retry on status.
 */
import { HttpServerResponse } from "@effect/platform"
import { Cause, Effect } from "effect"
import type { AppNotInstalled } from "../../../domain/Errors.js"
import { CollectorRefusal, HecCodes } from "../../../domain/EventCollector.js"
import type { HecCode } from "../../../domain/EventCollector.js"
import { lostEngine } from "../../engine/EngineAccess.js"

export const reply = (code: HecCode) => {
  const { status, text } = HecCodes[code]
  return HttpServerResponse.unsafeJson({ text, code }, { status })
}

export const refused = (refusal: CollectorRefusal) => {
  const { status, text } = HecCodes[refusal.code]
  return Effect.as(
    Effect.annotateLogs(Effect.logDebug("HEC request refused"), {
      code: refusal.code,
      detail: refusal.detail
    }),
    HttpServerResponse.unsafeJson(
      refusal.eventNumber === undefined
        ? { text, code: refusal.code }
        : { text, code: refusal.code, "invalid-event-number": refusal.eventNumber },
      { status }
    )
  )
}

/** The app gate's answer: see `HecRefusal` (domain/api/HecApi.ts) for its form. */
export const appMissing = (error: AppNotInstalled) =>
  HttpServerResponse.unsafeJson(
    { text: error.message, code: 404, hint: error.hint },
    { status: 404 }
  )

/**
 * A defect still answers in the protocol: an engine lost or out of reach as "Server is
 * busy" (code 9, which senders retry), anything else as code 8 with its cause in the log.
 */
export const internal = (defect: unknown) => {
  const lost = lostEngine(defect)
  return lost === undefined
    ? Effect.as(Effect.logError("HEC request failed", Cause.die(defect)), reply(8))
    : refused(new CollectorRefusal({ code: 9, detail: lost.message }))
}
