import type { Scope } from "../Shell.js"

export const AdminView = (_: { scope: Scope }) => (
  <p class="pad muted">Administration: not built yet.</p>
)
