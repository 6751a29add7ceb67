import { useState } from "preact/hooks"
import type { Scope } from "../Shell.js"
import { Apps } from "./Apps.js"
import { Clusters } from "./Clusters.js"
import { Keys } from "./Keys.js"
import { Organizations } from "./Organizations.js"

const TABS = ["Keys", "Clusters", "Apps", "Organizations"] as const

/** Keys, clusters, apps, organizations and members. */
export const AdminView = ({ scope }: { scope: Scope }) => {
  const [tab, setTab] = useState<(typeof TABS)[number]>("Keys")
  return (
    <div class="page admin-view">
      <div role="tablist" aria-label="Administration" class="tabs">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
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
