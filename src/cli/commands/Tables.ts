/** `tables` (list, describe, drop) and `databases` (list, create, delete). */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import { failure } from "../CliError.js"
import { errorLine, line } from "../Output.js"
import {
  confirmed,
  jsonOption,
  printFields,
  printJson,
  printTable,
  when,
  yesOption
} from "../Listing.js"
import { nameOf } from "../Names.js"
import { dataScope, scopeOptions, signedIn } from "../Session.js"
import type { ScopeFlags } from "../Session.js"
import * as Table from "../Table.js"

const scopeOnly = (scope: ReturnType<typeof dataScope>) => {
  const { database: _, ...rest } = scope
  return rest
}

const listTables = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* withClient(session, (client) =>
      client.tables.list({ urlParams: dataScope(session) })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["table", "rows", "bytes", "created"],
      answer.tables.map((t) => [
        t.name,
        Table.count(t.total_rows),
        Table.bytes(t.total_bytes),
        when(t.created_at)
      ]),
      `No tables in ${answer.database.name}.`
    )
  })

const listOptions = { ...scopeOptions, json: jsonOption }
const tableArg = Args.text({ name: "table" }).pipe(Args.withDescription("The table"))

const tablesList = Command.make("list", listOptions, listTables).pipe(
  Command.withDescription("List the database's tables. Example: sluice tables list --json")
)

const tablesDescribe = Command.make("describe", { ...listOptions, table: tableArg }, (flags) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const table = yield* nameOf((yield* contract).TableName, "table name", flags.table)
    const answer = yield* withClient(session, (client) =>
      client.tables.describe({ path: { table }, urlParams: dataScope(session) })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printFields([
      ["table", `${answer.database.name}.${answer.name}`],
      ["rows", Table.count(answer.total_rows)],
      ["bytes", Table.bytes(answer.total_bytes)],
      ["created", when(answer.created_at)]
    ])
    yield* line("")
    yield* printTable(
      ["column", "type"],
      answer.columns.map((c) => [c.name, c.type]),
      "No columns."
    )
  })
).pipe(
  Command.withDescription("A table's size and columns. Example: sluice tables describe events")
)

const tablesDrop = Command.make(
  "drop",
  { ...scopeOptions, table: tableArg, yes: yesOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const table = yield* nameOf((yield* contract).TableName, "table name", flags.table)
      const where = session.database === undefined ? table : `${session.database}.${table}`
      if (!(yield* confirmed(flags.yes, `drop table ${where} and all its rows`)))
        return yield* Effect.fail(failure("Not dropped."))
      yield* withClient(session, (client) =>
        client.tables.delete({ path: { table }, urlParams: dataScope(session) })
      )
      yield* errorLine(`Dropped table ${where}.`)
    })
).pipe(
  Command.withDescription(
    "Drop a table and its rows (asks first; --yes to skip). Example: sluice tables drop old_events --yes"
  )
)

export const tables = Command.make("tables", listOptions, listTables).pipe(
  Command.withDescription(
    "Tables of the database: list (the default), describe, drop. Example: sluice tables describe events"
  ),
  Command.withSubcommands([tablesList, tablesDescribe, tablesDrop])
)

const listDatabases = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* withClient(session, (client) =>
      client.databases.list({ urlParams: scopeOnly(dataScope(session)) })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["database"],
      answer.databases.map((d) => [d.name]),
      `No databases in ${answer.cluster.name}.`
    )
  })

const databaseArg = Args.text({ name: "database" }).pipe(Args.withDescription("The database"))

const databasesList = Command.make("list", listOptions, listDatabases).pipe(
  Command.withDescription("List the cluster's databases. Example: sluice databases list")
)

const databasesCreate = Command.make("create", { ...scopeOptions, name: databaseArg }, (flags) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const name = yield* nameOf((yield* contract).DatabaseName, "database name", flags.name)
    const answer = yield* withClient(session, (client) =>
      client.databases.create({ payload: { name }, urlParams: scopeOnly(dataScope(session)) })
    )
    yield* errorLine(`Created database ${answer.name}.`)
  })
).pipe(Command.withDescription("Create a database. Example: sluice databases create staging"))

const databasesDelete = Command.make(
  "delete",
  { ...scopeOptions, name: databaseArg, yes: yesOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const database = yield* nameOf((yield* contract).DatabaseName, "database name", flags.name)
      if (!(yield* confirmed(flags.yes, `delete database ${database} and all its tables`)))
        return yield* Effect.fail(failure("Not deleted."))
      yield* withClient(session, (client) =>
        client.databases.delete({ path: { database }, urlParams: scopeOnly(dataScope(session)) })
      )
      yield* errorLine(`Deleted database ${database}.`)
    })
).pipe(
  Command.withDescription(
    "Delete a database and its data (asks first; --yes to skip). Example: sluice databases delete staging --yes"
  )
)

export const databases = Command.make("databases", listOptions, listDatabases).pipe(
  Command.withDescription(
    "Databases of the cluster: list (the default), create, delete. Example: sluice databases create staging"
  ),
  Command.withSubcommands([databasesList, databasesCreate, databasesDelete])
)
