import type { ApiFailure } from "./api.js"
import { adminTabHref, followLink } from "./route.js"
import type { Scope } from "./Shell.js"

// The service's hints name its API calls; where the console has a view for the same, it
// names the view.
const VIEW_HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /GET \/v1\/tables lists the tables; GET \/v1\/tables\/\{table\} lists a table's columns\./,
    "The Tables view lists the tables and their columns."
  ],
  [
    /GET \/v1\/tables\/\{table\} lists a table's columns\./,
    "The Tables view lists a table's columns."
  ],
  [/GET \/v1\/tables lists your tables\./, "The Tables view lists your tables."],
  [
    /GET \/v1\/databases lists the databases; POST \/v1\/databases creates one\./,
    "The Tables view lists the databases and creates one."
  ],
  [/GET \/v1\/databases lists the databases\./, "The Tables view lists the databases."]
]

/** `hint` in the console's words. */
export const consoleHint = (hint: string) =>
  VIEW_HINTS.reduce((text, [call, words]) => text.replace(call, words), hint)

/** An API error: its message and its hint, as text. */
export const ErrorNote = ({ failure }: { failure: ApiFailure | null }) =>
  failure === null ? null : (
    <div class="error" role="alert">
      <strong>{failure.message}</strong>
      {failure.hint === "" ? null : <div class="hint">{consoleHint(failure.hint)}</div>}
    </div>
  )

/**
 * A failure of an app's endpoint. A 404 there says the app is not installed on the cluster
 * (the shell offers only organizations and clusters that exist): the service's hint names
 * the API call, and the console says where to install it instead.
 */
export const AppErrorNote = ({ failure, scope }: { failure: ApiFailure | null; scope: Scope }) => {
  if (failure?.status !== 404) return <ErrorNote failure={failure} />
  const href = adminTabHref(scope, "Apps")
  return (
    <div class="error" role="alert">
      <strong>{failure.message}</strong>
      <div class="hint">
        An organization admin installs it under{" "}
        <a href={href} onClick={(e) => followLink(e, href)}>
          Administration → Apps
        </a>
        .
      </div>
    </div>
  )
}
