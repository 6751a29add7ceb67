/**
 * The program a request says it comes from, for the user asked to approve a device login:
 * `x-service-client` and `x-service-client-version` (what sluice's own clients send), else
 * the first product of its `User-Agent` (`curl/8.5.0`). Nothing checks it; it is clipped
 * and stripped of control characters, and shown as text.
 */
import type { ClientSoftware } from "../DeviceLogins.js"

const MAX = 64

const cleaned = (value: string | undefined): string | null => {
  const text = value?.replace(/[\u0000-\u001f\u007f]/g, "").trim() ?? ""
  return text === "" ? null : text.slice(0, MAX)
}

const PRODUCT = /^([^\s/]+)(?:\/(\S+))?/

export const clientSoftwareOf = (
  headers: Readonly<Record<string, string | undefined>>
): ClientSoftware | null => {
  const named = cleaned(headers["x-service-client"])
  const agent = PRODUCT.exec(cleaned(headers["user-agent"]) ?? "")
  if (named !== null) {
    const version =
      cleaned(headers["x-service-client-version"]) ??
      // Older command lines send their version only in the user agent (`sluice-cli/0.1.0`).
      (agent !== null && /^sluice(-cli)?$/i.test(agent[1]!) ? cleaned(agent[2]) : null)
    return { name: named, version }
  }
  return agent === null ? null : { name: agent[1]!, version: cleaned(agent[2]) }
}
