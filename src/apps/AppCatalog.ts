/** The apps a cluster may install; a cluster starts with none of them. */
import { AppIds } from "../../domain/AppIds.js"
import type { AppId } from "../../domain/AppIds.js"

interface CatalogEntry {
  readonly id: AppId
  readonly name: string
}

export const appCatalog: ReadonlyArray<CatalogEntry> = [
  { id: AppIds.otlp, name: "OTLP ingest" },
  { id: AppIds.metrics, name: "Metrics-compatible endpoints" },
  { id: AppIds.spl, name: "SPL search and event ingest" }
]

/** The catalog entry of an id from a URL, if the catalog has it. */
export const catalogEntry = (id: string): CatalogEntry | undefined =>
  appCatalog.find((entry) => entry.id === id)

/** The display name of a catalog app. */
export const appName = (id: AppId): string => catalogEntry(id)?.name ?? id

/** How to install an app, for hints. */
export const installHint = (
  id: AppId,
  names?: { readonly organization: string; readonly cluster: string }
): string => {
  const organization = names ? encodeURIComponent(names.organization) : "…"
  const cluster = names ? encodeURIComponent(names.cluster) : "…"
  return (
    `An organization admin installs ${id} (${appName(id)}) with ` +
    `PUT /v1/apps/${id}?organization=${organization}&cluster=${cluster}.`
  )
}
