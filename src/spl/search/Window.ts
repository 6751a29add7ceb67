/**
 * The search's time window: each bound resolved against one
 * reading of the `Clock` taken as the search starts, earliest inclusive, latest
 * exclusive. An omitted `latest` is now; an omitted `earliest` is a day before `latest`
 * (the recent default window the timeline spans).
 */
import { Clock, Effect } from "effect"
import { BadRequest } from "../../../domain/Errors.js"
import { Refusal } from "../compiler/Refusal.js"
import { resolveTime } from "../compiler/TimeModifier.js"

export const DEFAULT_WINDOW_MS = 86_400_000

export interface Window {
  readonly earliest: number
  readonly latest: number
}

const HINT = "Time bounds are epoch seconds, now, or relative values such as -30m, -24h, -7d@d."

const bound = (parameter: string, text: string, now: number) =>
  Effect.try({ try: () => resolveTime(parameter, text, now), catch: (error) => error }).pipe(
    Effect.catchAll((error) =>
      error instanceof Refusal
        ? Effect.fail(new BadRequest({ message: `${parameter}: ${error.reason}`, hint: HINT }))
        : Effect.die(error)
    )
  )

export const resolveWindow = (earliest: string | undefined, latest: string | undefined) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const end = latest === undefined ? now : yield* bound("latest", latest, now)
    const start =
      earliest === undefined ? end - DEFAULT_WINDOW_MS : yield* bound("earliest", earliest, now)
    if (start >= end)
      return yield* new BadRequest({
        message: `The window is empty: earliest (${new Date(start).toISOString()}) is not before latest (${new Date(end).toISOString()}).`,
        hint: "earliest is inclusive and latest exclusive; give an earliest before latest."
      })
    return { earliest: start, latest: end } satisfies Window
  })

/** Refuses bounds a search could not run with (a saved search's, checked when it is saved). */
export const checkWindow = (
  earliest: string | null | undefined,
  latest: string | null | undefined
) => Effect.asVoid(resolveWindow(earliest ?? undefined, latest ?? undefined))
