import { useState } from "preact/hooks"
import { ApiFailure, call, failureOf } from "../api.js"
import { AppIds } from "../../../../domain/AppIds.js"
import { ErrorNote } from "../ErrorNote.js"
import { followLink, hrefOf } from "../route.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"

/**
 * What an app serves and where, in a line under its name: the address senders are pointed
 * at (this console's own origin), and the console's view for it once it is installed.
 */
const Serves = ({ id, installed, scope }: { id: string; installed: boolean; scope: Scope }) => {
  const origin = location.origin
  const view = (name: "search" | "metrics", label: string) => {
    if (!installed) return null
    const href = hrefOf({ ...scope, view: name }, { database: scope.database })
    return (
      <>
        {" "}
        <a href={href} onClick={(e) => followLink(e, href)}>
          {label}
        </a>
        .
      </>
    )
  }
  switch (id) {
    case AppIds.otlp:
      return (
        <p class="muted small">
          OTLP/HTTP at <code>{origin}/otlp</code> (the exporters'{" "}
          <code>OTEL_EXPORTER_OTLP_ENDPOINT</code>), OTLP/gRPC on the service's gRPC port (4317
          unless <code>SLUICE_GRPC_PORT</code> sets another); an API key of the cluster as{" "}
          <code>Authorization: Bearer</code>.
        </p>
      )
    case AppIds.spl:
      return (
        <p class="muted small">
          Splunk HTTP Event Collector at <code>{origin}/services/collector/event</code> (and{" "}
          <code>/raw</code>) with <code>Authorization: Splunk</code> and an API key of the cluster;
          SPL searches over the events.{view("search", "Open Search")}
        </p>
      )
    case AppIds.metrics:
      return (
        <p class="muted small">
          Prometheus remote write at <code>{origin}/metrics-compat/api/v1/write</code>; the
          Prometheus query API at <code>{origin}/metrics-compat</code> (a Grafana Prometheus data
          source's URL).{view("metrics", "Open Metrics")}
        </p>
      )
    default:
      return null
  }
}

/** The cluster's apps, installed and uninstalled by organization admins. */
export const Apps = ({ scope }: { scope: Scope }) => {
  const urlParams = { organization: scope.organization, cluster: scope.cluster }
  const apps = useApi(
    (client) => client.apps.list({ urlParams }),
    [scope.organization, scope.cluster]
  )
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const toggle = async (id: string, installed: boolean) => {
    setFailure(null)
    try {
      await call((client) =>
        installed
          ? client.apps.uninstall({ urlParams, path: { app_id: id } })
          : client.apps.install({ urlParams, path: { app_id: id } })
      )
      apps.reload()
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  return (
    <section aria-label="Apps">
      <h2>Apps of {scope.cluster}</h2>
      <ErrorNote failure={failure ?? apps.failure} />
      <ul class="plain apps">
        {(apps.value?.apps ?? []).map((app) => (
          <li key={app.id}>
            <strong>{app.name}</strong>{" "}
            <span class="muted small">{app.installed ? "installed" : "not installed"}</span>{" "}
            <button type="button" onClick={() => void toggle(app.id, app.installed)}>
              {app.installed ? `Uninstall ${app.id}` : `Install ${app.id}`}
            </button>
            <Serves id={app.id} installed={app.installed} scope={scope} />
          </li>
        ))}
      </ul>
    </section>
  )
}
