/**
 * Every view is a link: `/{organization}/{cluster}/{view}?database=…` (and the view's
 * own state, such as the query text, in the query string).
 */
export const VIEWS = ["sql", "tables", "search", "metrics", "logs", "admin"] as const
export type View = (typeof VIEWS)[number]

export interface Route {
  readonly organization: string
  readonly cluster: string
  readonly view: View
  readonly params: URLSearchParams
}

export const parseRoute = (location: Location): Route | null => {
  const [organization, cluster, view] = location.pathname
    .split("/")
    .filter((part) => part !== "")
    .map((part) => decodeURIComponent(part))
  if (organization === undefined || cluster === undefined) return null
  const known = VIEWS.find((name) => name === view) ?? "sql"
  return { organization, cluster, view: known, params: new URLSearchParams(location.search) }
}

export const hrefOf = (
  route: Pick<Route, "organization" | "cluster" | "view">,
  params: Record<string, string | undefined> = {}
) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== "") search.set(key, value)
  const query = search.toString()
  return `/${encodeURIComponent(route.organization)}/${encodeURIComponent(route.cluster)}/${route.view}${query === "" ? "" : `?${query}`}`
}

type RouteListener = () => void
const routeListeners = new Set<RouteListener>()
export const onNavigate = (listener: RouteListener) => {
  routeListeners.add(listener)
  window.addEventListener("popstate", listener)
  return () => {
    routeListeners.delete(listener)
    window.removeEventListener("popstate", listener)
  }
}

/** A new entry in the history, or the current one rewritten (`replace`). */
export const navigate = (href: string, replace = false) => {
  if (href === location.pathname + location.search) return
  if (replace) history.replaceState(null, "", href)
  else history.pushState(null, "", href)
  for (const listener of routeListeners) listener()
}
