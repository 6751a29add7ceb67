/**
 * Metadata of an event: the envelope's (or the query string's) value, else the request's
 * default. Index names follow Splunk's rule (lowercase letters, digits, `_` and `-`, not
 * starting with `-`); others are the protocol's "Incorrect index".
 */
import { Either } from "effect"
import type { EventDefaults } from "../../domain/EventCollector.js"
import { CollectorRefusal } from "../../domain/EventCollector.js"

const INDEX = /^[a-z0-9_][a-z0-9_-]{0,79}$/

export interface Metadata {
  readonly host: string
  readonly source: string
  readonly sourcetype: string
  readonly index: string
}

interface Given {
  readonly host?: unknown
  readonly source?: unknown
  readonly sourcetype?: unknown
  readonly index?: unknown
}

// Plain code, once per event: a refusal is built only when there is one.
const notText = (key: keyof Given, eventNumber: number | undefined) =>
  new CollectorRefusal({ code: 6, detail: `'${key}' is not a string`, eventNumber })

const pick = (value: unknown, fallback: string): string | undefined =>
  value === undefined || value === null || value === ""
    ? fallback
    : typeof value === "string"
      ? value
      : undefined

export const metadataOf = (
  given: Given,
  defaults: EventDefaults,
  eventNumber: number | undefined
): Either.Either<Metadata, CollectorRefusal> => {
  const host = pick(given.host, defaults.host)
  if (host === undefined) return Either.left(notText("host", eventNumber))
  const source = pick(given.source, defaults.source)
  if (source === undefined) return Either.left(notText("source", eventNumber))
  const sourcetype = pick(given.sourcetype, "httpevent")
  if (sourcetype === undefined) return Either.left(notText("sourcetype", eventNumber))
  const index = pick(given.index, "main")
  if (index === undefined) return Either.left(notText("index", eventNumber))
  if (!INDEX.test(index)) {
    return Either.left(new CollectorRefusal({ code: 7, detail: `index '${index}'`, eventNumber }))
  }
  return Either.right({ host, source, sourcetype, index })
}
