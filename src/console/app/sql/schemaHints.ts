import { QueryRequest } from "../../../../domain/api/QueryApi.js"
import { TableName } from "../../../../domain/Ids.js"
import { call } from "../api.js"
import type { Scope } from "../Shell.js"
import type { SchemaHints } from "./codemirror.js"

const DESCRIBED = 40

/** Tables, their columns (the first 40 tables described) and the engine's functions. */
export const loadSchemaHints = async (scope: Scope): Promise<SchemaHints> => {
  const urlParams = {
    organization: scope.organization,
    cluster: scope.cluster,
    database: scope.database
  }
  const [listed, functions] = await Promise.all([
    call((client) => client.tables.list({ urlParams })).catch(() => ({ tables: [] })),
    call((client) =>
      client.query.query({
        urlParams,
        payload: QueryRequest.make({
          sql: "SELECT name FROM system.functions ORDER BY name",
          format: "JSON"
        })
      })
    ).then(
      (result) => result.data.map((row) => String(row.name)),
      () => []
    )
  ])
  const tables = await Promise.all(
    listed.tables.slice(0, DESCRIBED).map((table) =>
      call((client) =>
        client.tables.describe({ urlParams, path: { table: TableName.make(table.name) } })
      ).then(
        (described) => ({ name: table.name, columns: described.columns }),
        () => ({ name: table.name, columns: [] })
      )
    )
  )
  return { tables, functions }
}
