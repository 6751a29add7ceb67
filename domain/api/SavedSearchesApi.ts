import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { ErrorWire } from "../Errors.js"
import { Authentication } from "../Identity.js"
import { SavedSearchId } from "../Ids.js"
import { AppScopeParams } from "./AppsApi.js"
import { Deleted } from "./Scope.js"
import { SplTime } from "./SplApi.js"

export const Visualization = Schema.Literal("table", "chart")
export type Visualization = typeof Visualization.Type

/** Private: the creator only. Shared: members of the organization. */
export const Visibility = Schema.Literal("private", "shared")
export type Visibility = typeof Visibility.Type

/** What the list shows of a search. */
export class SavedSearchMetadata extends Schema.Class<SavedSearchMetadata>("SavedSearchMetadata")({
  id: SavedSearchId,
  name: Schema.String,
  database: Schema.String,
  visualization: Visualization,
  visibility: Visibility,
  /** The creator's email. */
  created_by: Schema.String,
  created_at: Schema.String,
  updated_at: Schema.String
}) {}

/** A search with its complete configuration. */
export class SavedSearch extends Schema.Class<SavedSearch>("SavedSearch")({
  ...SavedSearchMetadata.fields,
  spl: Schema.String,
  earliest: Schema.NullOr(Schema.String),
  latest: Schema.NullOr(Schema.String),
  /** The timechart span; null when the search has none. */
  span_minutes: Schema.NullOr(Schema.Int),
  /** Whether the result table stays available. */
  keep_results: Schema.Boolean
}) {}

const editable = {
  name: Schema.NonEmptyTrimmedString,
  spl: Schema.String,
  earliest: Schema.NullOr(SplTime),
  latest: Schema.NullOr(SplTime),
  visualization: Visualization,
  span_minutes: Schema.NullOr(Schema.Int.pipe(Schema.positive())),
  keep_results: Schema.Boolean,
  database: Schema.String,
  visibility: Visibility
}

/** Only `name` and `spl` are required; the database defaults to the selected one. */
export class CreateSavedSearchRequest extends Schema.Class<CreateSavedSearchRequest>(
  "CreateSavedSearchRequest"
)({
  name: editable.name,
  spl: editable.spl,
  database: Schema.optional(editable.database),
  earliest: Schema.optionalWith(editable.earliest, { default: () => null }),
  latest: Schema.optionalWith(editable.latest, { default: () => null }),
  visualization: Schema.optionalWith(editable.visualization, { default: () => "table" }),
  span_minutes: Schema.optionalWith(editable.span_minutes, { default: () => null }),
  keep_results: Schema.optionalWith(editable.keep_results, { default: () => false }),
  visibility: Schema.optionalWith(editable.visibility, { default: () => "private" })
}) {}

/** Omitted properties are unchanged. */
export class UpdateSavedSearchRequest extends Schema.Class<UpdateSavedSearchRequest>(
  "UpdateSavedSearchRequest"
)({
  name: Schema.optional(editable.name),
  spl: Schema.optional(editable.spl),
  database: Schema.optional(editable.database),
  earliest: Schema.optional(editable.earliest),
  latest: Schema.optional(editable.latest),
  visualization: Schema.optional(editable.visualization),
  span_minutes: Schema.optional(editable.span_minutes),
  keep_results: Schema.optional(editable.keep_results),
  visibility: Schema.optional(editable.visibility)
}) {}

/** Filters of the list; each narrows it, all together. */
export const SavedSearchFilters = Schema.Struct({
  /** Case-insensitive substring of the name or the SPL text. */
  search: Schema.optional(Schema.String),
  /** The creator's email. */
  created_by: Schema.optional(Schema.String),
  database: Schema.optional(Schema.String),
  visibility: Schema.optional(Visibility)
})
export type SavedSearchFilters = typeof SavedSearchFilters.Type

export class SavedSearchList extends Schema.Class<SavedSearchList>("SavedSearchList")({
  searches: Schema.Array(SavedSearchMetadata),
  /** More than the 200 listed searches match. */
  truncated: Schema.Boolean
}) {}

const ListParams = Schema.Struct({
  ...AppScopeParams.fields,
  ...SavedSearchFilters.fields
})

const searchId = HttpApiSchema.param("search_id", SavedSearchId)

const One = Schema.Struct({ search: SavedSearch })

/** Saved SPL searches of a cluster; reachable only while the spl-app is installed. */
export class SavedSearchesApi extends HttpApiGroup.make("savedSearches")
  .add(
    HttpApiEndpoint.get("list", "/v1/apps/spl/searches")
      .setUrlParams(ListParams)
      .addSuccess(SavedSearchList)
  )
  .add(
    HttpApiEndpoint.post("create", "/v1/apps/spl/searches")
      // The database the search runs in unless the body names one.
      .setUrlParams(
        Schema.Struct({ ...AppScopeParams.fields, database: Schema.optional(Schema.String) })
      )
      .setPayload(CreateSavedSearchRequest)
      .addSuccess(One, { status: 201 })
  )
  .add(
    HttpApiEndpoint.get("get")`/v1/apps/spl/searches/${searchId}`
      .setUrlParams(AppScopeParams)
      .addSuccess(One)
  )
  .add(
    HttpApiEndpoint.patch("update")`/v1/apps/spl/searches/${searchId}`
      .setUrlParams(AppScopeParams)
      .setPayload(UpdateSavedSearchRequest)
      .addSuccess(One)
  )
  .add(
    HttpApiEndpoint.del("delete")`/v1/apps/spl/searches/${searchId}`
      .setUrlParams(AppScopeParams)
      .addSuccess(Deleted)
  )
  // Status-named errors first: a client decodes a status into the first one declared.
  .addError(ErrorWire.BadRequest)
  .addError(ErrorWire.Forbidden)
  .addError(ErrorWire.NotFound)
  .addError(ErrorWire.SplRefused)
  .addError(ErrorWire.InvalidDatabaseName)
  .addError(ErrorWire.DatabaseNotFound)
  .addError(ErrorWire.AppNotInstalled)
  .addError(ErrorWire.SavedSearchNotFound)
  .addError(ErrorWire.DuplicateSavedSearchName)
  .middleware(Authentication)
  .annotate(OpenApi.Description, "Saved SPL searches") {}
