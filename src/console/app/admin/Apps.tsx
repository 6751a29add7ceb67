import { useState } from "preact/hooks"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"

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
      <ul class="plain">
        {(apps.value?.apps ?? []).map((app) => (
          <li key={app.id}>
            <strong>{app.name}</strong>{" "}
            <span class="muted small">{app.installed ? "installed" : "not installed"}</span>{" "}
            <button type="button" onClick={() => void toggle(app.id, app.installed)}>
              {app.installed ? `Uninstall ${app.id}` : `Install ${app.id}`}
            </button>
          </li>
        ))}
      </ul>
    </section>
  )
}
