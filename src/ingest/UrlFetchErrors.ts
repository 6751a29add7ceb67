/**
 * How URL fetches fail, as the API's errors. Messages name the user's own URL at most,
 * never an address the server resolved or a redirect target's internals.
 */
import { BadRequest, Forbidden, PayloadTooLarge } from "../../domain/Errors.js"
import { RefusedAddress } from "./SsrfConnector.js"

export type FetchError = BadRequest | Forbidden | PayloadTooLarge

const ALLOW_HINT =
  "URL ingest fetches from public addresses only; an administrator can allow hosts or networks with SLUICE_URL_INGEST_ALLOW."

export const refused = (hop: number, host: string) =>
  new Forbidden({
    message:
      hop === 0
        ? `'${host}' is not a public address; URL ingest does not fetch from it.`
        : `Redirect ${hop} leads to an address that is not public; URL ingest does not follow it.`,
    hint: ALLOW_HINT
  })

export const tooLarge = (maxBytes: number) =>
  new PayloadTooLarge({
    message: `The file at the URL is larger than ${maxBytes} bytes.`,
    hint: "Split the file, or raise SLUICE_URL_INGEST_MAX_BYTES."
  })

export const tooSlow = (seconds: number) =>
  new BadRequest({
    message: `Fetching the URL took longer than ${seconds} s.`,
    hint: "Use a faster host or a smaller file, or raise SLUICE_URL_INGEST_TIMEOUT_SECONDS."
  })

export const badStatus = (status: number) =>
  new BadRequest({
    message: `The URL answered with HTTP status ${status}.`,
    hint: "Check that the URL is right and publicly readable."
  })

export const tooManyRedirects = (max: number) =>
  new BadRequest({
    message: `The URL redirected more than ${max} times.`,
    hint: "Give the file's final URL."
  })

/** Anything the HTTP client threw, at hop `hop` whose URL host is `host`. */
export const fetchFailure = (error: unknown, hop: number, host: string): FetchError => {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error
  if (error instanceof RefusedAddress || cause instanceof RefusedAddress) return refused(hop, host)
  const code =
    typeof cause === "object" && cause !== null && "code" in cause && typeof cause.code === "string"
      ? cause.code
      : "unknown error"
  return new BadRequest({
    message: `The URL could not be fetched (${code}).`,
    hint: "Check that the host exists and serves the file over http(s)."
  })
}
