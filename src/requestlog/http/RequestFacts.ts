/**
 * What the request log derives from a request's headers and matched route: who sent it
 * (`source`, `client_version`), what kind of request it was (`type:` searches) and the
 * table its route names (`table:` searches).
 */
import type { LogSource } from "../../../domain/api/LogsApi.js"
import type { RequestType } from "../LogRecord.js"

// The command-line client names itself `sluice/<version>` or `sluice-cli/<version>`
// (older builds send no `x-service-client`).
const CLI_AGENT = /^sluice(?:-cli)?\/(\S+)/i

/** `x-service-client: cli|ui`, else a CLI user agent is `cli`; anything else is `api`. */
export const sourceOf = (client: string | undefined, userAgent: string | undefined): LogSource => {
  const value = client?.trim().toLowerCase()
  if (value === "cli" || value === "ui") return value
  return userAgent !== undefined && CLI_AGENT.test(userAgent) ? "cli" : "api"
}

/** `x-service-client-version`, else the version in a CLI user agent. */
export const clientVersionOf = (
  header: string | undefined,
  userAgent: string | undefined
): string | undefined =>
  header ?? (userAgent === undefined ? undefined : CLI_AGENT.exec(userAgent)?.[1])

const TABLE_ROUTE = "/v1/tables/{table}"

export const requestTypeOf = (
  method: string,
  route: string | null,
  explain: boolean
): RequestType => {
  if (method === "POST" && route === "/v1/query") return explain ? "explain" : "select"
  if (route !== TABLE_ROUTE) return ""
  return method === "POST" ? "insert" : method === "GET" ? "describe" : ""
}

/** The table a table route names (`/v1/tables/{table}` and below), decoded. */
export const routeTableOf = (route: string | null, path: string): string | undefined => {
  if (route === null || !route.startsWith(TABLE_ROUTE)) return undefined
  const segment = path.split("/")[3]
  if (segment === undefined || segment === "") return undefined
  try {
    return decodeURIComponent(segment).slice(0, 256)
  } catch {
    return segment.slice(0, 256)
  }
}
