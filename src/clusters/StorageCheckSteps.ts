/**
 * The wording and time bound of each step of the storage check. A step that fails ends
 * the check; its message is what the user reads, so it names the step, the location and
 * the store's own error code.
 */
import { Data, Duration, Effect } from "effect"

/** A store that does not answer must not hold the request open for long. */
export const stepTimeout = Duration.seconds(10)

export class StepFailed extends Data.TaggedError("StepFailed")<{ readonly message: string }> {}

/** `AccessDenied: Access Denied` from an SDK service error, else the transport error. */
export const describeStoreError = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const code =
    error.name !== "Error"
      ? error.name
      : "code" in error && typeof error.code === "string"
        ? error.code
        : "Error"
  const message = error.message.trim()
  return message === "" || message === code ? code : `${code}: ${message}`
}

/** Runs one SDK call, cancelled (through `signal`) when it outlives `stepTimeout`. */
export const step = <A>(describe: string, run: (signal: AbortSignal) => Promise<A>) =>
  Effect.tryPromise({
    try: run,
    catch: (error) => new StepFailed({ message: `${describe}: ${describeStoreError(error)}` })
  }).pipe(
    Effect.timeoutFail({
      duration: stepTimeout,
      onTimeout: () =>
        new StepFailed({
          message: `${describe}: no answer within ${Duration.format(stepTimeout)}`
        })
    })
  )

/**
 * Blanks out credentials a store or a transport error might echo: the answer goes to
 * whoever called the endpoint and is logged.
 */
export const withoutSecrets = (message: string, secrets: ReadonlyArray<string>) =>
  secrets
    .filter((secret) => secret.length >= 8)
    .reduce((text, secret) => text.split(secret).join("[redacted]"), message)

/** `path` as a key prefix: no leading slash, one trailing slash, empty for the bucket's root. */
const keyPrefix = (path: string) => {
  const trimmed = path.replace(/^\/+|\/+$/g, "")
  return trimmed === "" ? "" : `${trimmed}/`
}

export const probeKey = (path: string, id: string) =>
  `${keyPrefix(path)}.sluice-storage-check-${id}`

export const locationUrl = (location: { readonly bucket: string; readonly path: string }) =>
  `s3://${location.bucket}/${keyPrefix(location.path)}`
