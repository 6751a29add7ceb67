/**
 * Saved SPL searches of the spl-app: records of a cluster, kept in the
 * control plane. A private search is its creator's alone; a shared one is visible to every
 * member of the organization. Only the creator changes or deletes a search; organization
 * admins may also delete shared ones. Every method first requires the spl-app on the
 * cluster, so uninstalling hides the records and reinstalling brings them back unchanged.
 *
 * A search someone may not see is reported as missing, never as forbidden, so a private
 * search's existence is not confirmed to anyone but its creator.
 */
import { Context } from "effect"
import type { Effect } from "effect"
import type {
  CreateSavedSearchRequest,
  SavedSearch,
  SavedSearchFilters,
  SavedSearchList,
  UpdateSavedSearchRequest
} from "./api/SavedSearchesApi.js"
import type {
  AppNotInstalled,
  BadRequest,
  DatabaseNotFound,
  DuplicateSavedSearchName,
  Forbidden,
  InvalidDatabaseName,
  NotFound,
  SavedSearchNotFound,
  SplRefused
} from "./Errors.js"
import type { Caller } from "./Identity.js"
import type { SavedSearchId } from "./Ids.js"

/** The organization and cluster the searches belong to, by name. */
export interface SavedSearchPlace {
  readonly organization: string
  readonly cluster: string
}

/** Not a member, an API key (users only), no such cluster, or the app not installed. */
export type SavedSearchPlaceError = Forbidden | NotFound | AppNotInstalled

export class SavedSearches extends Context.Tag("sluice/SavedSearches")<
  SavedSearches,
  {
    /** What `caller` may see, filtered; at most 200, with `truncated` when more match. */
    readonly list: (
      caller: Caller,
      place: SavedSearchPlace,
      filters: SavedSearchFilters
    ) => Effect.Effect<SavedSearchList, SavedSearchPlaceError>
    /**
     * Creates a search of `caller`'s. Without a `database` in the request it runs in
     * `selectedDatabase` (the request's database parameter), else `default`. The SPL must
     * compile and the time bounds resolve (`BadRequest` otherwise).
     */
    readonly create: (
      caller: Caller,
      place: SavedSearchPlace,
      request: CreateSavedSearchRequest,
      selectedDatabase: string | undefined
    ) => Effect.Effect<
      SavedSearch,
      | SavedSearchPlaceError
      | SplRefused
      | BadRequest
      | InvalidDatabaseName
      | DatabaseNotFound
      | DuplicateSavedSearchName
    >
    readonly get: (
      caller: Caller,
      place: SavedSearchPlace,
      id: SavedSearchId
    ) => Effect.Effect<SavedSearch, SavedSearchPlaceError | SavedSearchNotFound>
    /** The creator's only; omitted properties are unchanged. */
    readonly update: (
      caller: Caller,
      place: SavedSearchPlace,
      id: SavedSearchId,
      request: UpdateSavedSearchRequest
    ) => Effect.Effect<
      SavedSearch,
      | SavedSearchPlaceError
      | SavedSearchNotFound
      | SplRefused
      | BadRequest
      | InvalidDatabaseName
      | DatabaseNotFound
      | DuplicateSavedSearchName
    >
    /** The creator's, or a shared one by an organization admin. */
    readonly remove: (
      caller: Caller,
      place: SavedSearchPlace,
      id: SavedSearchId
    ) => Effect.Effect<void, SavedSearchPlaceError | SavedSearchNotFound>
  }
>() {}
