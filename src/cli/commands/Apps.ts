/** `apps` (list, install, uninstall): the cluster's apps, with a user session. */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import { withClient } from "../Api.js"
import { errorLine } from "../Output.js"
import { jsonOption, printJson, printTable } from "../Listing.js"
import type { ScopeFlags } from "../Session.js"
import { clusterOf, organizationOf, requireToken, resolve, scopeOptions } from "../Session.js"

const listOptions = { ...scopeOptions, json: jsonOption }

const listApps = (flags: ScopeFlags & { readonly json: boolean }) =>
  Effect.gen(function* () {
    const session = yield* resolve(flags)
    yield* requireToken(session)
    const answer = yield* withClient(session, (client) =>
      client.apps.list({
        urlParams: { organization: organizationOf(session), cluster: clusterOf(session) }
      })
    )
    if (flags.json) return yield* printJson(answer)
    yield* printTable(
      ["app", "name", "installed"],
      answer.apps.map((a) => [a.id, a.name, a.installed ? "yes" : "no"]),
      "No apps."
    )
  })

const change = (verb: "install" | "uninstall") =>
  Command.make(
    verb,
    {
      ...scopeOptions,
      app: Args.text({ name: "app" }).pipe(Args.withDescription("spl-app, metrics-app or otlp-app"))
    },
    (flags) =>
      Effect.gen(function* () {
        const session = yield* resolve(flags)
        yield* requireToken(session)
        const params = {
          path: { app_id: flags.app },
          urlParams: { organization: organizationOf(session), cluster: clusterOf(session) }
        }
        const app = yield* withClient(session, (client) =>
          verb === "install" ? client.apps.install(params) : client.apps.uninstall(params)
        )
        yield* errorLine(
          `${app.name} is ${app.installed ? "installed" : "not installed"} on ${clusterOf(session)}.`
        )
      })
  ).pipe(
    Command.withDescription(
      verb === "install"
        ? "Install an app on the cluster. Example: sluice apps install spl-app"
        : "Uninstall an app; its data is kept. Example: sluice apps uninstall spl-app"
    )
  )

export const apps = Command.make("apps", listOptions, listApps).pipe(
  Command.withDescription(
    "The cluster's apps: list (the default), install, uninstall (a user login, not an API key). Example: sluice apps install spl-app"
  ),
  Command.withSubcommands([
    Command.make("list", listOptions, listApps).pipe(
      Command.withDescription("List the cluster's apps. Example: sluice apps list --json")
    ),
    change("install"),
    change("uninstall")
  ])
)
