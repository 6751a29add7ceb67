import { useState } from "preact/hooks"
import { CreateKeyRequest } from "../../../../domain/api/KeysApi.js"
import type { Permission } from "../../../../domain/Identity.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import type { Scope } from "../Shell.js"
import { useApi } from "../useApi.js"
import { Time } from "../time.js"

const PERMISSIONS: ReadonlyArray<Permission> = ["admin", "read_write", "write_only", "read_only"]

/** API keys of the cluster: list, create (the token shown once, with a copy button), delete. */
export const Keys = ({ scope }: { scope: Scope }) => {
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const keys = useApi(
    (client) => client.keys.list({ urlParams }),
    [scope.organization, scope.cluster, scope.database]
  )
  const [name, setName] = useState("")
  const [permission, setPermission] = useState<Permission>("read_only")
  const [created, setCreated] = useState<string | null>(null)
  const [copied, setCopied] = useState(false)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const create = async (event: Event) => {
    event.preventDefault()
    setFailure(null)
    try {
      const answer = await call((client) =>
        client.keys.create({
          urlParams,
          payload: CreateKeyRequest.make({ name, permission }, true)
        })
      )
      setCreated(answer.key.token)
      setCopied(false)
      setName("")
      keys.reload()
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  const remove = async (id: string) => {
    setFailure(null)
    try {
      await call((client) => client.keys.revoke({ urlParams, path: { id_or_token: id } }))
      keys.reload()
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  return (
    <section aria-label="API keys">
      <h2>API keys</h2>
      <form class="form" onSubmit={create}>
        <label>
          Key name
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Permission
          <select
            value={permission}
            onChange={(e) =>
              setPermission(PERMISSIONS.find((p) => p === e.currentTarget.value) ?? "read_only")
            }
          >
            {PERMISSIONS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Create key</button>
      </form>
      {created === null ? null : (
        <div class="created" role="status">
          <p>The key's token, shown this once:</p>
          <code class="token" aria-label="New key token">
            {created}
          </code>{" "}
          <button
            type="button"
            onClick={() =>
              void navigator.clipboard.writeText(created).then(
                () => setCopied(true),
                () => setCopied(false)
              )
            }
          >
            {copied ? "Copied" : "Copy"}
          </button>{" "}
          <button type="button" onClick={() => setCreated(null)}>
            Done
          </button>
        </div>
      )}
      <ErrorNote failure={failure ?? keys.failure} />
      <table class="list" aria-label="Keys">
        <thead>
          <tr>
            <th>Name</th>
            <th>Permission</th>
            <th>Token</th>
            <th>Database</th>
            <th>Created</th>
            <th>Last used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(keys.value?.keys ?? []).map((key) => (
            <tr key={key.id}>
              <td>{key.name}</td>
              <td>{key.permission}</td>
              <td>
                <code>{key.hint}</code>
              </td>
              <td>{key.default_database}</td>
              <td class="small muted">
                <Time value={key.created_at} />
              </td>
              <td class="small muted">
                {key.last_used_at === null ? "never" : <Time value={key.last_used_at} />}
              </td>
              <td>
                <button
                  type="button"
                  class="link danger"
                  aria-label={`Delete key ${key.name}`}
                  onClick={() => void remove(key.id)}
                >
                  delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
