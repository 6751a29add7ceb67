import { useState } from "preact/hooks"
import { CreateDatabaseRequest } from "../../../../domain/api/DatabasesApi.js"
import { QueryRequest } from "../../../../domain/api/QueryApi.js"
import { DatabaseName, TableName } from "../../../../domain/Ids.js"
import { ApiFailure, call, failureOf } from "../api.js"
import { ErrorNote } from "../ErrorNote.js"
import { hrefOf, navigate } from "../route.js"
import type { Scope } from "../Shell.js"
import { Grid, gridHeight } from "../sql/Grid.js"
import { countOf, formatBytes, formatCount } from "../sql/resultStream.js"
import { useApi } from "../useApi.js"
import { Confirm } from "./Confirm.js"
import { Upload } from "./Upload.js"
import { UrlLoad } from "./UrlLoad.js"
import { Time } from "../time.js"

export const quoteIdentifier = (name: string) =>
  `\`${name.replace(/\\/g, "\\\\").replace(/`/g, "\\`")}\``

const TableDetail = ({
  scope,
  table,
  onDropped
}: {
  scope: Scope
  table: string
  onDropped: () => void
}) => {
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const described = useApi(
    (client) => client.tables.describe({ urlParams, path: { table: TableName.make(table, true) } }),
    [scope.database, table]
  )
  const sample = useApi(
    (client) =>
      client.query.query({
        urlParams,
        payload: QueryRequest.make({
          sql: `SELECT * FROM ${quoteIdentifier(table)} LIMIT 100`,
          format: "JSON"
        })
      }),
    [scope.database, table]
  )
  const [dropping, setDropping] = useState(false)
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const drop = async () => {
    try {
      await call((client) =>
        client.tables.delete({ urlParams, path: { table: TableName.make(table, true) } })
      )
      setDropping(false)
      onDropped()
    } catch (error) {
      setDropping(false)
      setFailure(failureOf(error))
    }
  }
  const columns = sample.value?.meta ?? []
  return (
    <section aria-label={`Table ${table}`} class="detail">
      <div class="toolbar">
        <h2>{table}</h2>
        <span class="spacer" />
        <button
          type="button"
          onClick={() =>
            navigate(
              hrefOf(
                { ...scope, view: "sql" },
                {
                  database: scope.database,
                  sql: `SELECT * FROM ${quoteIdentifier(table)} LIMIT 100`
                }
              )
            )
          }
        >
          Query in SQL
        </button>
        <button type="button" class="danger" onClick={() => setDropping(true)}>
          Drop table…
        </button>
      </div>
      <ErrorNote failure={failure ?? described.failure} />
      {dropping ? (
        <Confirm
          title={`Drop table ${table}?`}
          text="Its rows are deleted and cannot be brought back. Type the table's name to confirm."
          expected={table}
          action="Drop table"
          onConfirm={() => void drop()}
          onCancel={() => setDropping(false)}
        />
      ) : null}
      {described.value === null ? null : (
        <>
          <p class="muted">
            {countOf(described.value.total_rows, "row")} ·{" "}
            {formatBytes(described.value.total_bytes)} · created{" "}
            <Time value={described.value.created_at} />
          </p>
          <h3>Columns</h3>
          <table class="list" aria-label="Columns">
            <thead>
              <tr>
                <th>Column</th>
                <th>Type</th>
              </tr>
            </thead>
            <tbody>
              {described.value.columns.map((column) => (
                <tr key={column.name}>
                  <td>
                    <code>{column.name}</code>
                  </td>
                  <td class="muted">{column.type}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h3>Sample</h3>
      <ErrorNote failure={sample.failure} />
      {sample.value === null ? null : (
        <div class="sample" style={{ height: `${gridHeight(sample.value.data.length, 360)}px` }}>
          <Grid
            columns={columns}
            rows={sample.value.data.map((row) => columns.map((c) => row[c.name]))}
            version={0}
          />
        </div>
      )}
    </section>
  )
}

const Databases = ({ scope }: { scope: Scope }) => {
  const urlParams = { organization: scope.organization, cluster: scope.cluster }
  const list = useApi(
    (client) => client.databases.list({ urlParams }),
    [scope.organization, scope.cluster]
  )
  const [name, setName] = useState("")
  const [failure, setFailure] = useState<ApiFailure | null>(null)
  const [deleting, setDeleting] = useState<string | null>(null)
  const create = async (event: Event) => {
    event.preventDefault()
    setFailure(null)
    try {
      await call((client) =>
        client.databases.create({
          urlParams,
          payload: CreateDatabaseRequest.make({ name: DatabaseName.make(name, true) }, true)
        })
      )
      setName("")
      list.reload()
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  const remove = async (database: string) => {
    setDeleting(null)
    setFailure(null)
    try {
      await call((client) =>
        client.databases.delete({
          urlParams,
          path: { database: DatabaseName.make(database, true) }
        })
      )
      list.reload()
      if (database === scope.database)
        navigate(hrefOf({ ...scope, view: "tables" }, { database: "default" }))
    } catch (error) {
      setFailure(failureOf(error))
    }
  }
  return (
    <section aria-label="Databases">
      <h2>Databases</h2>
      <ul class="plain">
        {(list.value?.databases ?? []).map((database) => (
          <li key={database.name}>
            <a
              href={hrefOf({ ...scope, view: "tables" }, { database: database.name })}
              aria-current={database.name === scope.database ? "true" : undefined}
              onClick={(e) => {
                e.preventDefault()
                navigate(hrefOf({ ...scope, view: "tables" }, { database: database.name }))
              }}
            >
              {database.name}
            </a>{" "}
            {database.name === "default" ? (
              // The API keeps `default` (a 409 names it): offering a delete that always fails
              // would only annoy.
              <span class="muted small">kept: every cluster has it</span>
            ) : (
              <button
                type="button"
                class="link danger small"
                aria-label={`Delete database ${database.name}`}
                onClick={() => setDeleting(database.name)}
              >
                delete
              </button>
            )}
          </li>
        ))}
      </ul>
      {deleting === null ? null : (
        <Confirm
          title={`Delete database ${deleting}?`}
          text="Its tables and their rows are deleted. Type the database's name to confirm."
          expected={deleting}
          action="Delete database"
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
      <form class="form" onSubmit={create}>
        <label>
          New database
          <input value={name} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit">Create</button>
      </form>
      <ErrorNote failure={failure ?? list.failure} />
    </section>
  )
}

export const TablesView = ({ scope, selected }: { scope: Scope; selected: string | null }) => {
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const tables = useApi(
    (client) => client.tables.list({ urlParams }),
    [scope.organization, scope.cluster, scope.database]
  )
  const select = (table: string | null) =>
    navigate(
      hrefOf({ ...scope, view: "tables" }, { database: scope.database, table: table ?? undefined })
    )
  return (
    <div class="page tables-view">
      <div class="columns-split">
        <div>
          <h2>Tables in {scope.database}</h2>
          <ErrorNote failure={tables.failure} />
          <table class="list" aria-label="Tables">
            <thead>
              <tr>
                <th>Name</th>
                <th class="num">Rows</th>
                <th class="num">Size</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {(tables.value?.tables ?? []).map((table) => (
                <tr key={table.name} aria-selected={table.name === selected}>
                  <td>
                    <button type="button" class="link" onClick={() => select(table.name)}>
                      {table.name}
                    </button>
                  </td>
                  <td class="num">{formatCount(table.total_rows)}</td>
                  <td class="num">{formatBytes(table.total_bytes)}</td>
                  <td class="muted small">
                    <Time value={table.created_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {tables.value !== null && tables.value.tables.length === 0 ? (
            <p class="muted">No tables yet: drop a file below to make one.</p>
          ) : null}
          <Upload scope={scope} onInserted={tables.reload} />
          <UrlLoad scope={scope} onLoaded={tables.reload} />
          <Databases scope={scope} />
        </div>
        <div>
          {selected === null ? (
            <p class="muted">Choose a table to see its columns and a sample of its rows.</p>
          ) : (
            <TableDetail
              key={selected}
              scope={scope}
              table={selected}
              onDropped={() => {
                select(null)
                tables.reload()
              }}
            />
          )}
        </div>
      </div>
    </div>
  )
}
