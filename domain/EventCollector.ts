/**
 * The HTTP Event Collector protocol of the spl-app: request
 * bodies become typed events, every one validated before any is stored, and each refusal
 * is one of the protocol's numbered answers. Transports read bodies and credentials and
 * render `{text, code}`; this contract knows neither.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { AppNotInstalled } from "./Errors.js"
import type { AppParams } from "./AppAccess.js"
import type { ClusterScope } from "./Authorization.js"
import type { Caller } from "./Identity.js"
import type { DatabaseName } from "./Ids.js"
import type { SplEvent } from "./SplEvent.js"

/** The protocol's answers this service gives: HTTP status and text by code. */
export const HecCodes = {
  0: { status: 200, text: "Success" },
  1: { status: 403, text: "Token disabled" },
  2: { status: 401, text: "Token is required" },
  3: { status: 401, text: "Invalid authorization" },
  4: { status: 403, text: "Invalid token" },
  5: { status: 400, text: "No data" },
  6: { status: 400, text: "Invalid data format" },
  7: { status: 400, text: "Incorrect index" },
  8: { status: 500, text: "Internal server error" },
  9: { status: 503, text: "Server is busy" },
  12: { status: 400, text: "Event field is required" },
  13: { status: 400, text: "Event field cannot be blank" },
  14: { status: 400, text: "ACK is disabled" },
  15: { status: 400, text: "Error in handling indexed fields" },
  16: { status: 400, text: "Query string authorization is not enabled" },
  17: { status: 200, text: "HEC is healthy" },
  21: { status: 400, text: "Invalid token" }
} as const

export type HecCode = keyof typeof HecCodes

/** A request the protocol refuses; `eventNumber` (0-based) names the event at fault. */
export class CollectorRefusal extends Schema.TaggedError<CollectorRefusal>()("CollectorRefusal", {
  code: Schema.Literal(1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13, 14, 15, 16, 21),
  /** Why, for the request log; the answer itself carries only the protocol's text. */
  detail: Schema.String,
  eventNumber: Schema.optional(Schema.Int)
}) {}

/** What the request itself supplies to events that do not: metadata defaults, the time. */
export interface EventDefaults {
  /** The client's address. */
  readonly host: string
  /** `http:<key name>`. */
  readonly source: string
  /** Epoch milliseconds the request arrived at. */
  readonly receivedAt: number
}

/** `/raw` metadata from the query string; every one optional. */
export interface RawMetadata {
  readonly host?: string | undefined
  readonly source?: string | undefined
  readonly sourcetype?: string | undefined
  readonly index?: string | undefined
  readonly time?: string | undefined
}

/** Where a caller's events land: its cluster, with the spl-app, and the selected database. */
export interface CollectorTarget {
  readonly scope: ClusterScope
  readonly database: DatabaseName
}

export class EventCollector extends Context.Tag("sluice/EventCollector")<
  EventCollector,
  {
    /** JSON envelopes: concatenated (any whitespace between) or one array; all or nothing. */
    readonly parseEvents: (
      body: Uint8Array,
      defaults: EventDefaults
    ) => Effect.Effect<ReadonlyArray<SplEvent>, CollectorRefusal>
    /** Raw text, one event per non-blank line, metadata from the query string. */
    readonly parseRaw: (
      body: Uint8Array,
      metadata: RawMetadata,
      defaults: EventDefaults
    ) => Effect.Effect<ReadonlyArray<SplEvent>, CollectorRefusal>
    /**
     * The cluster and database a caller's events go to: it may insert there, the spl-app
     * is installed and the cluster is serving.
     */
    readonly target: (
      caller: Caller,
      where: AppParams
    ) => Effect.Effect<CollectorTarget, CollectorRefusal | AppNotInstalled>
    /** The spl-app gate alone (the health check of a known caller). */
    readonly requireApp: (caller: Caller) => Effect.Effect<void, AppNotInstalled>
    /** Stores `events` in `spl_events` of the target, all or none. */
    readonly store: (
      at: CollectorTarget,
      events: ReadonlyArray<SplEvent>
    ) => Effect.Effect<number, CollectorRefusal | AppNotInstalled>
  }
>() {}
