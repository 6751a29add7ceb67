/**
 * A server could not listen where the settings say: the start stops with one line
 * naming the setting (`src/main.ts`), not a stack trace.
 */
import { Data } from "effect"

export class CannotListen extends Data.TaggedError("CannotListen")<{
  readonly message: string
}> {}

const reasons: Record<string, string> = {
  EADDRINUSE: "the port is in use by another process",
  EADDRNOTAVAIL: "the address is not one of this machine's",
  EACCES: "not permitted (ports below 1024 need privileges)"
}

/**
 * The system's error code, wherever in a cause chain it sits; `@grpc/grpc-js` gives it
 * only in its message.
 */
const codeOf = (error: unknown): string | undefined => {
  for (
    let at = error;
    typeof at === "object" && at !== null;
    at = (at as { cause?: unknown }).cause
  ) {
    const code = (at as { code?: unknown }).code
    if (typeof code === "string" && code in reasons) return code
    const named = /\b(EADDRINUSE|EADDRNOTAVAIL|EACCES)\b/.exec(
      String((at as { message?: unknown }).message)
    )
    if (named !== null) return named[1]
  }
  return undefined
}

/** `portSetting` names the server's port; an address not this machine's is `SLUICE_HOST`'s. */
export const cannotListen = (
  server: string,
  portSetting: string,
  address: string,
  error: unknown
): CannotListen => {
  const code = codeOf(error)
  const reason =
    (code === undefined ? undefined : reasons[code]) ??
    (error instanceof Error ? error.message : String(error))
  const setting = code === "EADDRNOTAVAIL" ? "SLUICE_HOST" : portSetting
  return new CannotListen({
    message: `${server} cannot listen on ${address} (${setting}): ${reason}`
  })
}
