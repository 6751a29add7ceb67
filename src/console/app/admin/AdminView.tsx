import type { Scope } from "../Shell.js"
import { ADMIN_TABS, adminTabHref, navigate } from "../route.js"
import { Apps } from "./Apps.js"
import { Clusters } from "./Clusters.js"
import { Keys } from "./Keys.js"
import { Organizations } from "./Organizations.js"

/** Keys, clusters, apps, organizations and members, a tab each. */
export const AdminView = ({ scope, params }: { scope: Scope; params: URLSearchParams }) => {
  const asked = params.get("tab")?.toLowerCase()
  const tab = ADMIN_TABS.find((name) => name.toLowerCase() === asked) ?? "Keys"
  return (
    <div class="page admin-view">
      <div role="tablist" aria-label="Administration" class="tabs">
        {ADMIN_TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => navigate(adminTabHref(scope, name))}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === "Keys" ? (
          <Keys scope={scope} />
        ) : tab === "Clusters" ? (
          <Clusters scope={scope} />
        ) : tab === "Apps" ? (
          <Apps scope={scope} />
        ) : (
          <Organizations scope={scope} />
        )}
      </div>
    </div>
  )
}
