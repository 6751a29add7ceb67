/** `saved-searches` (list, show, create, update, delete, run): the SPL app's saved searches. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import { badUsage, failure } from "../CliError.js"
import {
  confirmed,
  jsonOption,
  printFields,
  printJson,
  printTable,
  when,
  yesOption
} from "../Listing.js"
import { checked, nameOf } from "../Names.js"
import { errorLine, line } from "../Output.js"
import type { ScopeFlags, Session } from "../Session.js"
import { clusterOf, organizationOf, scopeOptions, signedIn } from "../Session.js"
import { outputOf, outputOption, runSearch, windowOptions } from "./Spl.js"

const appScope = (session: Session) => ({
  organization: organizationOf(session),
  cluster: clusterOf(session)
})

const idArg = Args.text({ name: "id" }).pipe(Args.withDescription("The saved search's id"))
const searchId = (text: string) =>
  Effect.flatMap(contract, (c) => nameOf(c.SavedSearchId, "saved search id", text))

const listOptions = {
  ...scopeOptions,
  json: jsonOption,
  search: Options.text("search").pipe(
    Options.withDescription("Name or SPL containing this text"),
    Options.optional
  ),
  visibility: Options.choice("visibility", ["private", "shared"]).pipe(Options.optional)
}

const listSearches = (
  flags: ScopeFlags & {
    readonly json: boolean
    readonly search: Option.Option<string>
    readonly visibility: Option.Option<"private" | "shared">
  }
) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* withClient(session, (client) =>
      client.savedSearches.list({
        urlParams: {
          ...appScope(session),
          ...(session.database === undefined ? {} : { database: session.database }),
          ...Option.match(flags.search, { onNone: () => ({}), onSome: (search) => ({ search }) }),
          ...Option.match(flags.visibility, {
            onNone: () => ({}),
            onSome: (visibility) => ({ visibility })
          })
        }
      })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["id", "name", "database", "visibility", "created by", "updated"],
      answer.searches.map((s) => [
        s.id,
        s.name,
        s.database,
        s.visibility,
        s.created_by,
        when(s.updated_at)
      ]),
      "No saved searches."
    )
    if (answer.truncated) yield* errorLine("(more searches match: narrow with --search)")
  })

const editOptions = {
  spl: Options.text("spl").pipe(Options.withDescription("The SPL search"), Options.optional),
  earliest: Options.text("earliest").pipe(
    Options.withDescription("Default start, e.g. -24h"),
    Options.optional
  ),
  latest: Options.text("latest").pipe(
    Options.withDescription("Default end, e.g. now"),
    Options.optional
  ),
  visibility: Options.choice("visibility", ["private", "shared"]).pipe(Options.optional),
  visualization: Options.choice("visualization", ["table", "chart"]).pipe(Options.optional)
}

const some = <K extends string, A>(key: K, value: Option.Option<A>) =>
  Option.match(value, { onNone: () => ({}), onSome: (v) => ({ [key]: v }) }) as { [P in K]?: A }

const show = Command.make("show", { ...scopeOptions, json: jsonOption, id: idArg }, (flags) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const search_id = yield* searchId(flags.id)
    const { search } = yield* withClient(session, (client) =>
      client.savedSearches.get({ path: { search_id }, urlParams: appScope(session) })
    )
    if (flags.json) return yield* printJson(search)
    yield* printFields([
      ["id", search.id],
      ["name", search.name],
      ["spl", search.spl],
      ["database", search.database],
      ["earliest", search.earliest ?? ""],
      ["latest", search.latest ?? ""],
      ["visibility", search.visibility],
      ["visualization", search.visualization],
      ["created by", search.created_by],
      ["created", when(search.created_at)],
      ["updated", when(search.updated_at)]
    ])
  })
).pipe(
  Command.withDescription(
    "A saved search's whole configuration. Example: sluice saved-searches show <id>"
  )
)

const create = Command.make(
  "create",
  {
    ...scopeOptions,
    ...editOptions,
    name: Args.text({ name: "name" }).pipe(Args.withDescription("Its name"))
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const spl = Option.getOrUndefined(flags.spl)
      if (spl === undefined)
        return yield* Effect.fail(
          badUsage(
            "--spl is required.",
            "Example: sluice saved-searches create errors --spl 'status>=500'"
          )
        )
      const payload = yield* checked(
        (yield* contract).CreateSavedSearchRequest,
        {
          name: flags.name,
          spl,
          ...some("earliest", flags.earliest),
          ...some("latest", flags.latest),
          ...some("visibility", flags.visibility),
          ...some("visualization", flags.visualization)
        },
        { name: "<name>" }
      )
      const { search } = yield* withClient(session, (client) =>
        client.savedSearches.create({
          urlParams: {
            ...appScope(session),
            ...(session.database === undefined ? {} : { database: session.database })
          },
          payload
        })
      )
      yield* line(search.id)
      yield* errorLine(`Saved search ${JSON.stringify(search.name)} created.`)
    })
).pipe(
  Command.withDescription(
    "Save a search; prints its id. Example: sluice saved-searches create errors --spl 'status>=500' --earliest -24h"
  )
)

const update = Command.make(
  "update",
  {
    ...scopeOptions,
    ...editOptions,
    id: idArg,
    name: Options.text("name").pipe(Options.withDescription("A new name"), Options.optional)
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const search_id = yield* searchId(flags.id)
      const { search } = yield* withClient(session, (client) =>
        client.savedSearches.update({
          path: { search_id },
          urlParams: appScope(session),
          payload: {
            ...some("name", flags.name),
            ...some("spl", flags.spl),
            ...some("earliest", flags.earliest),
            ...some("latest", flags.latest),
            ...some("visibility", flags.visibility),
            ...some("visualization", flags.visualization)
          }
        })
      )
      yield* errorLine(`Saved search ${JSON.stringify(search.name)} updated.`)
    })
).pipe(
  Command.withDescription(
    "Change a saved search. Example: sluice saved-searches update <id> --spl 'status>=400'"
  )
)

const remove = Command.make("delete", { ...scopeOptions, id: idArg, yes: yesOption }, (flags) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const search_id = yield* searchId(flags.id)
    if (!(yield* confirmed(flags.yes, `delete saved search ${search_id}`)))
      return yield* Effect.fail(failure("Not deleted."))
    yield* withClient(session, (client) =>
      client.savedSearches.delete({ path: { search_id }, urlParams: appScope(session) })
    )
    yield* errorLine(`Deleted saved search ${search_id}.`)
  })
).pipe(
  Command.withDescription(
    "Delete a saved search (asks first; --yes to skip). Example: sluice saved-searches delete <id> --yes"
  )
)

const run = Command.make(
  "run",
  {
    ...scopeOptions,
    ...windowOptions,
    id: idArg,
    format: outputOption,
    fields: Options.boolean("fields").pipe(Options.withDescription("Also field statistics"))
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const search_id = yield* searchId(flags.id)
      const { search } = yield* withClient(session, (client) =>
        client.savedSearches.get({ path: { search_id }, urlParams: appScope(session) })
      )
      yield* runSearch(
        { ...session, database: session.database ?? search.database },
        {
          spl: search.spl,
          earliest: Option.getOrUndefined(flags.earliest) ?? search.earliest ?? undefined,
          latest: Option.getOrUndefined(flags.latest) ?? search.latest ?? undefined,
          fields: flags.fields,
          explain: false,
          output: outputOf(flags.format)
        }
      )
    })
).pipe(
  Command.withDescription(
    "Run a saved search (its own window unless --earliest/--latest). Example: sluice saved-searches run <id>"
  )
)

export const savedSearches = Command.make("saved-searches", listOptions, listSearches).pipe(
  Command.withDescription(
    "Saved SPL searches: list (the default), show, create, update, delete, run. Example: sluice saved-searches run <id>"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listSearches).pipe(
      Command.withDescription(
        "List saved searches. Example: sluice saved-searches list --search errors"
      )
    ),
    show,
    create,
    update,
    remove,
    run
  ])
)
