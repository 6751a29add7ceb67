import { useEffect, useState } from "preact/hooks"
import type { Effect } from "effect"
import type { SluiceClient } from "../../../domain/Client.js"
import { ApiFailure, call } from "./api.js"

export interface Loaded<A> {
  readonly value: A | null
  readonly failure: ApiFailure | null
  readonly loading: boolean
  readonly reload: () => void
}

/** One call of the typed client, made again when `deps` change or on `reload`. */
export const useApi = <A, E>(
  f: (client: SluiceClient) => Effect.Effect<A, E, never>,
  deps: ReadonlyArray<unknown>
): Loaded<A> => {
  const [state, setState] = useState<{
    value: A | null
    failure: ApiFailure | null
    loading: boolean
  }>({
    value: null,
    failure: null,
    loading: true
  })
  const [round, setRound] = useState(0)
  useEffect(() => {
    const controller = new AbortController()
    setState((previous) => ({ ...previous, loading: true }))
    call(f, controller.signal).then(
      (value) => setState({ value, failure: null, loading: false }),
      (error: unknown) => {
        if (controller.signal.aborted) return
        setState({
          value: null,
          failure:
            error instanceof ApiFailure
              ? error
              : new ApiFailure("internal", String(error), "", null),
          loading: false
        })
      }
    )
    return () => controller.abort()
  }, [...deps, round])
  return { ...state, reload: () => setRound((r) => r + 1) }
}
