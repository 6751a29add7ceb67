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

const pick = (
  key: keyof Given,
  given: Given,
  fallback: string,
  eventNumber: number | undefined
): Either.Either<string, CollectorRefusal> => {
  const value = given[key]
  if (value === undefined || value === null || value === "") return Either.right(fallback)
  return typeof value === "string"
    ? Either.right(value)
    : Either.left(
        new CollectorRefusal({ code: 6, detail: `'${key}' is not a string`, eventNumber })
      )
}

export const metadataOf = (
  given: Given,
  defaults: EventDefaults,
  eventNumber: number | undefined
): Either.Either<Metadata, CollectorRefusal> =>
  Either.all({
    host: pick("host", given, defaults.host, eventNumber),
    source: pick("source", given, defaults.source, eventNumber),
    sourcetype: pick("sourcetype", given, "httpevent", eventNumber),
    index: pick("index", given, "main", eventNumber)
  }).pipe(
    Either.filterOrLeft(
      ({ index }) => INDEX.test(index),
      ({ index }) => new CollectorRefusal({ code: 7, detail: `index '${index}'`, eventNumber })
    )
  )
