/**
 * SPL search: a search over `spl_events` of a
 * cluster's database, compiled by `SplCompiler` and run through the user-level SQL path
 * (`QueryRunner`: read-only, limits, cancel by query id), answered with its rows, a
 * zero-filled timeline, the row count of each stage and, on request, per-field
 * statistics. Also the language manifest, generated from the compiler's own definitions.
 */
import { Context, Schema } from "effect"
import type { Effect } from "effect"
import type { SplCapabilities, SplSearchResult } from "./api/SplApi.js"
import type { ClusterScope } from "./Authorization.js"
import type {
  AppNotInstalled,
  BadRequest,
  ClusterPaused,
  Conflict,
  Forbidden,
  QueryRefused,
  SplRefused,
  Unavailable
} from "./Errors.js"
import type { DatabaseName } from "./Ids.js"

/** One search as the caller asked for it. */
export class SplSearchQuery extends Schema.Class<SplSearchQuery>("SplSearchQuery")({
  spl: Schema.String,
  /** Time bounds as written (epoch seconds, `now`, `-24h`, `-1d@d` …); resolved at start. */
  earliest: Schema.optional(Schema.String),
  latest: Schema.optional(Schema.String),
  includeFieldStatistics: Schema.Boolean,
  /** Compile only, run nothing. */
  explain: Schema.Boolean,
  /** The id every statement of the search runs under, for `QueryRunner.cancel`. */
  queryId: Schema.String
}) {}

export type SplSearchFailure =
  | AppNotInstalled
  | BadRequest
  | SplRefused
  | QueryRefused
  | ClusterPaused
  | Unavailable
  | Forbidden
  | Conflict

export class SplSearch extends Context.Tag("sluice/SplSearch")<
  SplSearch,
  {
    /**
     * Runs `query` in `database` of the scope's cluster; the spl-app must be installed
     * there. `BadRequest`: a time bound that is not one, or a window that ends before it
     * starts; `SplRefused`: SPL outside the subset; the rest as for `QueryRunner.run`.
     */
    readonly search: (
      scope: ClusterScope,
      database: DatabaseName,
      query: SplSearchQuery
    ) => Effect.Effect<SplSearchResult, SplSearchFailure>
    /** The static language manifest: what the compiler accepts, and its limits. */
    readonly capabilities: Effect.Effect<SplCapabilities>
  }
>() {}
