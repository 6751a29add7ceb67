/** `organizations` (list, create, rename, delete): the user's organizations. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import { failure } from "../CliError.js"
import { confirmed, jsonOption, printJson, printTable, yesOption } from "../Listing.js"
import { nameOf } from "../Names.js"
import { errorLine } from "../Output.js"
import * as Profiles from "../Profiles.js"
import type { ScopeFlags, Session } from "../Session.js"
import { organizationOf, scopeOptions, signedIn } from "../Session.js"

const listOptions = { ...scopeOptions, json: jsonOption }
const nameArg = (name: string, description: string) =>
  Args.text({ name }).pipe(Args.withDescription(description))

const listOrganizations = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* withClient(session, (client) => client.organizations.list())
    if (flags.json) return yield* printJson(answer)
    const current = organizationOf(session)
    yield* printTable(
      ["organization", "role", "in use"],
      answer.organizations.map((o) => [o.name, o.role, o.name === current ? "*" : ""]),
      "Not a member of any organization."
    )
  })

/** A profile whose default organization was renamed follows it. */
const followRename = (session: Session, from: string, to: string) =>
  Effect.gen(function* () {
    const file = yield* Profiles.read
    const profile = file.profiles[session.profileName]
    if (profile?.organization !== from) return
    yield* Profiles.write({
      ...file,
      profiles: { ...file.profiles, [session.profileName]: { ...profile, organization: to } }
    })
  })

const create = Command.make(
  "create",
  { ...scopeOptions, name: nameArg("name", "The new organization's name") },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const name = yield* nameOf(
        (yield* contract).OrganizationName,
        "organization name",
        flags.name
      )
      const created = yield* withClient(session, (client) =>
        client.organizations.create({ payload: { organization_name: name } })
      )
      yield* errorLine(
        `Created organization ${created.name}, with cluster default and database default; you are its admin.`
      )
    })
).pipe(
  Command.withDescription(
    "Create an organization (you become its admin). Example: sluice organizations create acme"
  )
)

const rename = Command.make(
  "rename",
  {
    ...scopeOptions,
    name: nameArg("name", "The organization"),
    to: nameArg("new-name", "Its new name")
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const to = yield* nameOf((yield* contract).OrganizationName, "organization name", flags.to)
      yield* withClient(session, (client) =>
        client.organizations.rename({
          path: { org: flags.name },
          payload: { organization_name: to }
        })
      )
      yield* followRename(session, flags.name, to)
      yield* errorLine(`Renamed organization ${flags.name} to ${to}.`)
    })
).pipe(
  Command.withDescription(
    "Rename an organization (admins). Example: sluice organizations rename acme acme-eu"
  )
)

const remove = Command.make(
  "delete",
  { ...scopeOptions, name: nameArg("name", "The organization"), yes: yesOption },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      if (
        !(yield* confirmed(
          flags.yes,
          `delete organization ${flags.name} with its clusters, data and keys`
        ))
      )
        return yield* Effect.fail(failure("Not deleted."))
      yield* withClient(session, (client) =>
        client.organizations.delete({ path: { org: flags.name } })
      )
      yield* errorLine(`Deleted organization ${flags.name}.`)
    })
).pipe(
  Command.withDescription(
    "Delete an organization with its clusters and keys (admins; asks first, --yes to skip). Example: sluice organizations delete acme --yes"
  )
)

export const organizations = Command.make("organizations", listOptions, listOrganizations).pipe(
  Command.withDescription(
    "Your organizations: list (the default), create, rename, delete (a user login). Example: sluice organizations create acme"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listOrganizations).pipe(
      Command.withDescription(
        "List your organizations and your role in each. Example: sluice organizations list --json"
      )
    ),
    create,
    rename,
    remove
  ])
)
