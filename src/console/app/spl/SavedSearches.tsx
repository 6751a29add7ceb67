import { useState } from "preact/hooks"
import {
  CreateSavedSearchRequest,
  UpdateSavedSearchRequest
} from "../../../../domain/api/SavedSearchesApi.js"
import type { SavedSearch, Visibility } from "../../../../domain/api/SavedSearchesApi.js"
import { SavedSearchId } from "../../../../domain/Ids.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { AppErrorNote, ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"

/** Saved searches of the organization's cluster: list with filters, open, save, update, delete. */
export const SavedSearches = ({
  scope,
  current,
  opened,
  onOpen
}: {
  scope: Scope
  current: { spl: string; earliest: string; latest: string }
  opened: SavedSearch | null
  onOpen: (search: SavedSearch | null) => void
}) => {
  const urlParams = { organization: scope.organization, cluster: scope.cluster }
  const [filter, setFilter] = useState("")
  const [visibility, setVisibility] = useState<"" | Visibility>("")
  const [name, setName] = useState("")
  const [share, setShare] = useState<Visibility>("private")
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const list = useApi(
    (client) =>
      client.savedSearches.list({
        urlParams: {
          ...urlParams,
          ...(filter === "" ? {} : { search: filter }),
          ...(visibility === "" ? {} : { visibility })
        }
      }),
    [scope.organization, scope.cluster, filter, visibility]
  )
  const attempt = async (action: () => Promise<void>) => {
    setFailure(null)
    try {
      await action()
      list.reload()
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  const save = () =>
    attempt(async () => {
      const { search } = await call((client) =>
        client.savedSearches.create({
          urlParams: { ...urlParams, database: scope.database },
          payload: CreateSavedSearchRequest.make({
            name,
            spl: current.spl,
            earliest: current.earliest,
            latest: current.latest === "now" ? null : current.latest,
            visibility: share
          })
        })
      )
      onOpen(search)
      setName("")
    })
  const update = (search: SavedSearch) =>
    attempt(async () => {
      const updated = await call((client) =>
        client.savedSearches.update({
          urlParams,
          path: { search_id: search.id },
          payload: UpdateSavedSearchRequest.make({
            spl: current.spl,
            earliest: current.earliest,
            latest: current.latest === "now" ? null : current.latest
          })
        })
      )
      onOpen(updated.search)
    })
  const open = (id: string) =>
    attempt(async () => {
      const { search } = await call((client) =>
        client.savedSearches.get({ urlParams, path: { search_id: SavedSearchId.make(id, true) } })
      )
      onOpen(search)
    })
  const remove = (id: string) =>
    attempt(async () => {
      await call((client) =>
        client.savedSearches.delete({
          urlParams,
          path: { search_id: SavedSearchId.make(id, true) }
        })
      )
      if (opened?.id === id) onOpen(null)
    })
  return (
    <aside class="saved" aria-label="Saved searches">
      <h2>Saved searches</h2>
      {opened === null ? null : (
        <p>
          Open: <strong>{opened.name}</strong>{" "}
          <button type="button" onClick={() => void update(opened)}>
            Update with this search
          </button>
        </p>
      )}
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault()
          void save()
        }}
      >
        <label>
          Save as
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Visibility
          <select
            value={share}
            onChange={(e) => setShare(e.currentTarget.value === "shared" ? "shared" : "private")}
          >
            <option value="private">private</option>
            <option value="shared">shared</option>
          </select>
        </label>
        <button type="submit">Save</button>
      </form>
      <div class="form">
        <label>
          Filter saved
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
        <label>
          Shown
          <select
            value={visibility}
            onChange={(e) =>
              setVisibility(
                e.currentTarget.value === ""
                  ? ""
                  : e.currentTarget.value === "shared"
                    ? "shared"
                    : "private"
              )
            }
          >
            <option value="">all</option>
            <option value="private">private</option>
            <option value="shared">shared</option>
          </select>
        </label>
      </div>
      {/* The list fails when the app is missing; an action on one search, for its own reasons. */}
      {failure === null ? (
        <AppErrorNote failure={list.failure} scope={scope} />
      ) : (
        <ErrorNote failure={failure} />
      )}
      <ul class="plain">
        {(list.value?.searches ?? []).map((search) => (
          <li key={search.id}>
            <button type="button" class="link" onClick={() => void open(search.id)}>
              {search.name}
            </button>{" "}
            <span class="muted small">
              {search.visibility} · {search.created_by}
            </span>{" "}
            <button
              type="button"
              class="link danger small"
              aria-label={`Delete saved search ${search.name}`}
              onClick={() => void remove(search.id)}
            >
              delete
            </button>
          </li>
        ))}
      </ul>
      {list.value?.truncated === true ? (
        <p class="muted small">More match: narrow the filter.</p>
      ) : null}
    </aside>
  )
}
