import { render } from "preact"
import { Suspense } from "preact/compat"
import { useEffect, useState } from "preact/hooks"
import "./styles.css"
import { call, onFailure, session } from "./api.js"
import { hrefOf, navigate, onNavigate, parseRoute } from "./route.js"
import { Shell } from "./Shell.js"
import { SignIn } from "./SignIn.js"
// The views are in the page's own script (their editors' languages and the charts load
// when used): split finer, the first render waited on a dozen files from a busy server.
import { AdminView } from "./admin/AdminView.js"
import { DeviceApproval } from "./DeviceApproval.js"
import { LogsView } from "./logs/LogsView.js"
import { MetricsView } from "./metrics/MetricsView.js"
import { SplView } from "./spl/SplView.js"
import { SqlView } from "./sql/SqlView.js"
import { TablesView } from "./tables/TablesView.js"

/** Where `sluice login` sends a signed-in user to approve it (no organization is one path long). */
const DEVICE_PATH = "/device"

/** Signed in with no view in the address: the first organization's first cluster. */
const Landing = () => {
  useEffect(() => {
    void (async () => {
      const { organizations } = await call((client) => client.organizations.list())
      const organization = organizations[0]?.name ?? "default"
      const { clusters } = await call((client) =>
        client.clusters.list({ urlParams: { organization } })
      )
      const cluster = clusters[0]?.name ?? "default"
      navigate(hrefOf({ organization, cluster, view: "sql" }, { database: "default" }), true)
    })().catch(() => undefined)
  }, [])
  return <p class="muted pad">Loading…</p>
}

const OfflineBanner = ({ onBack }: { onBack: () => void }) => {
  const [checking, setChecking] = useState(false)
  const retry = async () => {
    setChecking(true)
    try {
      await call((client) => client.health.health())
      onBack()
    } catch {
      // Still away: the banner stays.
    } finally {
      setChecking(false)
    }
  }
  return (
    <div class="banner" role="status">
      The connection to sluice was lost; nothing you typed is lost.
      <button type="button" onClick={retry} disabled={checking}>
        {checking ? "Trying…" : "Retry"}
      </button>
    </div>
  )
}

const App = () => {
  const [signedIn, setSignedIn] = useState(session.token() !== null)
  const [expired, setExpired] = useState(false)
  const [offline, setOffline] = useState(false)
  const [route, setRoute] = useState(() => parseRoute(location))
  useEffect(() => onNavigate(() => setRoute(parseRoute(location))), [])
  useEffect(
    () =>
      onFailure((failure) => {
        if (failure.status === 401 && session.token() !== null) {
          session.clear()
          setExpired(true)
        } else if (failure.offline) setOffline(true)
      }),
    []
  )
  if (!signedIn)
    return (
      <SignIn
        expired={false}
        onSignedIn={() => setSignedIn(true)}
        note={
          location.pathname === DEVICE_PATH
            ? "A command-line login is waiting for your approval: sign in to see it."
            : null
        }
      />
    )
  return (
    <>
      {offline ? <OfflineBanner onBack={() => setOffline(false)} /> : null}
      {location.pathname === DEVICE_PATH ? (
        <Suspense fallback={<p class="muted pad">Loading…</p>}>
          <DeviceApproval />
        </Suspense>
      ) : route === null ? (
        <Landing />
      ) : (
        <Shell
          route={route}
          onSignOut={() => {
            setSignedIn(false)
            setExpired(false)
          }}
        >
          {(scope) => (
            <Suspense fallback={<p class="muted pad">Loading…</p>}>
              {route.view === "sql" ? (
                <SqlView scope={scope} params={route.params} />
              ) : route.view === "tables" ? (
                <TablesView scope={scope} selected={route.params.get("table")} />
              ) : route.view === "search" ? (
                <SplView scope={scope} params={route.params} />
              ) : route.view === "metrics" ? (
                <MetricsView scope={scope} params={route.params} />
              ) : route.view === "logs" ? (
                <LogsView scope={scope} />
              ) : (
                <AdminView scope={scope} params={route.params} />
              )}
            </Suspense>
          )}
        </Shell>
      )}
      {expired ? <SignIn expired onSignedIn={() => setExpired(false)} /> : null}
    </>
  )
}

const root = document.getElementById("app")
if (root !== null) render(<App />, root)
