import type { ApiFailure } from "./api.js"

/** An API error: its message and its hint, as the service words them, as text. */
export const ErrorNote = ({ failure }: { failure: ApiFailure | null }) =>
  failure === null ? null : (
    <div class="error" role="alert">
      <strong>{failure.message}</strong>
      {failure.hint === "" ? null : <div class="hint">{failure.hint}</div>}
    </div>
  )
