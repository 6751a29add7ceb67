/**
 * Every view is a link: `/{organization}/{cluster}/{view}?database=…` (and the view's
 * own state, such as the query text, in the query string).
 */
export const VIEWS = ["sql", "tables", "search", "metrics", "logs", "admin"] as const
export type View = (typeof VIEWS)[number]

/** The administration view's tabs, each a link of its own (`/admin?tab=apps`). */
export const ADMIN_TABS = ["Keys", "Clusters", "Apps", "Organizations"] as const
export type AdminTab = (typeof ADMIN_TABS)[number]

export interface Route {
  readonly organization: string
  readonly cluster: string
  readonly view: View
  readonly params: URLSearchParams
  /** A view the link names that the console does not have (`view` is then `sql`). */
  readonly unknownView?: string
}

export const parseRoute = (location: Location): Route | null => {
  const [organization, cluster, view] = location.pathname
    .split("/")
    .filter((part) => part !== "")
    .map((part) => decodeURIComponent(part))
  if (organization === undefined || cluster === undefined) return null
  const known = VIEWS.find((name) => name === view)
  return {
    organization,
    cluster,
    view: known ?? "sql",
    params: new URLSearchParams(location.search),
    ...(known === undefined && view !== undefined ? { unknownView: view } : {})
  }
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

export const adminTabHref = (
  where: Pick<Route, "organization" | "cluster"> & { readonly database: string },
  tab: AdminTab
) => hrefOf({ ...where, view: "admin" }, { database: where.database, tab: tab.toLowerCase() })

/**
 * A click on one of the console's own links: followed in the page, unless a modifier key or
 * another button asks the browser for a new tab or window.
 */
export const followLink = (event: MouseEvent, href: string) => {
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
  event.preventDefault()
  navigate(href)
}
