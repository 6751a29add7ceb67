import type { ComponentChildren } from "preact"
import { call, session } from "./api.js"
import { followLink, hrefOf, navigate, VIEWS } from "./route.js"
import type { Route, View } from "./route.js"
import { useApi } from "./useApi.js"
import type { Loaded } from "./useApi.js"

const TITLES: Record<View, string> = {
  sql: "SQL",
  tables: "Tables",
  search: "Search",
  metrics: "Metrics",
  logs: "Logs",
  admin: "Administration"
}

/** What every data request names: organization, cluster and database. */
export interface Scope {
  readonly organization: string
  readonly cluster: string
  readonly database: string
}

export const Shell = ({
  route,
  onSignOut,
  children
}: {
  route: Route
  onSignOut: () => void
  children: (scope: Scope) => ComponentChildren
}) => {
  const database = route.params.get("database") ?? "default"
  // Each list is asked again when the name chosen from it changes, so one just created in a
  // view (a database, a cluster, an organization) is known when the address names it.
  const organizations = useApi((client) => client.organizations.list(), [route.organization])
  const clusters = useApi(
    (client) => client.clusters.list({ urlParams: { organization: route.organization } }),
    [route.organization, route.cluster]
  )
  const databases = useApi(
    (client) =>
      client.databases.list({
        urlParams: { organization: route.organization, cluster: route.cluster }
      }),
    [route.organization, route.cluster, database]
  )
  const scope: Scope = { organization: route.organization, cluster: route.cluster, database }
  // A link from elsewhere (an old bookmark, a colleague's) may name what this user does not
  // have, or a view the console does not: said once here, rather than as each view's first
  // failing call, or as another view opened in its place.
  const known = <A,>(loaded: Loaded<A>, has: (value: A) => boolean) =>
    loaded.loading || loaded.value === null || has(loaded.value)
  const unknownLink =
    route.unknownView !== undefined
      ? `The console has no view named '${route.unknownView}'.`
      : !known(organizations, (v) => v.organizations.some((o) => o.name === scope.organization))
        ? `You are not a member of an organization named '${scope.organization}'.`
        : !known(clusters, (v) => v.clusters.some((c) => c.name === scope.cluster))
          ? `Organization '${scope.organization}' has no cluster named '${scope.cluster}'.`
          : !known(databases, (v) => v.databases.some((d) => d.name === database))
            ? `Cluster '${scope.cluster}' has no database named '${database}'.`
            : null
  const switchTo = (next: Partial<Scope>) =>
    navigate(
      hrefOf(
        {
          organization: next.organization ?? scope.organization,
          cluster: next.cluster ?? scope.cluster,
          view: route.view
        },
        {
          database:
            next.database ??
            (next.cluster !== undefined || next.organization !== undefined ? "default" : database)
        }
      )
    )
  const signOut = async () => {
    try {
      await call((client) => client.auth.logout())
    } catch {
      // Signed out here whatever the service said: the token is dropped below.
    }
    session.clear()
    onSignOut()
  }
  return (
    <div class="shell">
      <header class="topbar">
        <a
          class="brand"
          href="/"
          onClick={(e) => followLink(e, hrefOf({ ...scope, view: "sql" }, { database }))}
        >
          sluice
        </a>
        <nav aria-label="Views">
          {VIEWS.map((view) => (
            <a
              key={view}
              href={hrefOf({ ...scope, view }, { database })}
              aria-current={
                view === route.view && route.unknownView === undefined ? "page" : undefined
              }
              onClick={(e) => followLink(e, hrefOf({ ...scope, view }, { database }))}
            >
              {TITLES[view]}
            </a>
          ))}
        </nav>
        <div class="scope">
          <label>
            <span class="sr-only">Organization</span>
            <select
              aria-label="Organization"
              value={scope.organization}
              onChange={(e) =>
                switchTo({ organization: e.currentTarget.value, cluster: "default" })
              }
            >
              {(organizations.value?.organizations ?? [{ name: scope.organization }]).map((o) => (
                <option key={o.name} value={o.name}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span class="sr-only">Cluster</span>
            <select
              aria-label="Cluster"
              value={scope.cluster}
              onChange={(e) => switchTo({ cluster: e.currentTarget.value })}
            >
              {(clusters.value?.clusters ?? [{ name: scope.cluster, id: scope.cluster }]).map(
                (c) => (
                  <option key={c.id} value={c.name}>
                    {c.name}
                  </option>
                )
              )}
            </select>
          </label>
          <label>
            <span class="sr-only">Database</span>
            <select
              aria-label="Database"
              value={database}
              onChange={(e) => switchTo({ database: e.currentTarget.value })}
            >
              {(databases.value?.databases ?? [{ name: database }]).map((d) => (
                <option key={d.name} value={d.name}>
                  {d.name}
                </option>
              ))}
            </select>
          </label>
          <span class="user" title="Signed in as">
            {session.email()}
          </span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <main class="view" aria-label={TITLES[route.view]}>
        {unknownLink === null ? (
          children(scope)
        ) : (
          <div class="pad">
            <div class="error" role="alert">
              <strong>{unknownLink}</strong>
              <div class="hint">Pick one in the bar above.</div>
            </div>
          </div>
        )}
      </main>
    </div>
  )
}
