import type { Scope } from "../Shell.js"

export const LogsView = (_: { scope: Scope }) => (
  <p class="pad muted">Request logs: not built yet.</p>
)
