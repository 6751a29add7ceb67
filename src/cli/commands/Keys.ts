/** `keys` (list, create printing the token once, delete): the cluster's API keys. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect } from "effect"
import { withClient } from "../Api.js"
import { contract } from "../Contract.js"
import { failure } from "../CliError.js"
import { confirmed, jsonOption, printJson, printTable, when, yesOption } from "../Listing.js"
import { checked } from "../Names.js"
import { errorLine, line, stdoutIsTTY } from "../Output.js"
import type { ScopeFlags } from "../Session.js"
import { dataScope, scopeOptions, signedIn } from "../Session.js"

const listOptions = { ...scopeOptions, json: jsonOption }

const listKeys = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* signedIn(flags)
    const answer = yield* withClient(session, (client) =>
      client.keys.list({ urlParams: dataScope(session) })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["id", "name", "permission", "token", "database", "created", "last used"],
      answer.keys.map((k) => [
        k.id,
        k.name,
        k.permission,
        k.hint,
        k.default_database,
        when(k.created_at),
        when(k.last_used_at) || "never"
      ]),
      "No API keys."
    )
  })

const create = Command.make(
  "create",
  {
    ...scopeOptions,
    json: jsonOption,
    name: Args.text({ name: "name" }).pipe(Args.withDescription("What the key is for")),
    permission: Options.choice("permission", [
      "admin",
      "read_write",
      "write_only",
      "read_only"
    ]).pipe(Options.withDescription("What the key may do"), Options.withDefault("read_only"))
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      const payload = yield* checked(
        (yield* contract).CreateKeyRequest,
        {
          name: flags.name,
          permission: flags.permission
        },
        { name: "<name>" }
      )
      const created = yield* withClient(session, (client) =>
        client.keys.create({ urlParams: dataScope(session), payload })
      )
      if (flags.json) return yield* printJson(created.key)
      // The token alone on stdout, so that `$(sluice keys create …)` captures it.
      yield* line(created.token)
      yield* errorLine(
        `Created ${created.permission} key ${JSON.stringify(created.name)} (${created.id}) for ${created.database.name}.` +
          (stdoutIsTTY() ? "\nThis is the only time the token is shown: keep it now." : "")
      )
    })
).pipe(
  Command.withDescription(
    "Create an API key and print its token, the only time it is shown. Example: sluice keys create loader --permission write_only"
  )
)

const remove = Command.make(
  "delete",
  {
    ...scopeOptions,
    key: Args.text({ name: "id" }).pipe(Args.withDescription("The key's id (or its token)")),
    yes: yesOption
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* signedIn(flags)
      if (!(yield* confirmed(flags.yes, `delete API key ${flags.key}`)))
        return yield* Effect.fail(failure("Not deleted."))
      yield* withClient(session, (client) =>
        client.keys.revoke({ path: { id_or_token: flags.key }, urlParams: dataScope(session) })
      )
      yield* errorLine(`Deleted API key ${flags.key}; requests with it are refused from now on.`)
    })
).pipe(
  Command.withDescription(
    "Delete (revoke) an API key (asks first; --yes to skip). Example: sluice keys delete <id> --yes"
  )
)

export const keys = Command.make("keys", listOptions, listKeys).pipe(
  Command.withDescription(
    "The cluster's API keys: list (the default), create, delete. Example: sluice keys create loader --permission write_only"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listKeys).pipe(
      Command.withDescription("List API keys (tokens masked). Example: sluice keys list --json")
    ),
    create,
    remove
  ])
)
