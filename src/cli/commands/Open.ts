/**
 * `open [VIEW] [TEXT]`: the console's page for the profile's organization, cluster and
 * database, in the browser (or printed when none can be opened, or with `--print`).
 * TEXT fills the view: SQL, an SPL search, a PromQL query, or a table to show.
 */
import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { openBrowser } from "../Browser.js"
import { errorLine, line } from "../Output.js"
import type { Session } from "../Session.js"
import { clusterOf, organizationOf, resolve, scopeOptions } from "../Session.js"

const VIEWS = ["sql", "tables", "search", "metrics", "logs", "admin"] as const
type View = (typeof VIEWS)[number]

/** The query parameter each view reads its TEXT from. */
const textParam: Readonly<Record<View, string | undefined>> = {
  sql: "sql",
  tables: "table",
  search: "spl",
  metrics: "promql",
  logs: undefined,
  admin: undefined
}

/** The console's address: `/{organization}/{cluster}/{view}?database=…`. */
export const consoleUrl = (session: Session, view: View, text: string | undefined) => {
  const url = new URL(
    `/${encodeURIComponent(organizationOf(session))}/${encodeURIComponent(clusterOf(session))}/${view}`,
    `${session.url}/`
  )
  if (session.database !== undefined) url.searchParams.set("database", session.database)
  const param = textParam[view]
  if (param !== undefined && text !== undefined) url.searchParams.set(param, text)
  return url.toString()
}

export const open = Command.make(
  "open",
  {
    ...scopeOptions,
    view: Args.choice(
      VIEWS.map((v) => [v, v] as const),
      { name: "view" }
    ).pipe(Args.withDescription(`The page: ${VIEWS.join(", ")} (default sql)`), Args.optional),
    text: Args.text({ name: "text" }).pipe(
      Args.withDescription(
        "SQL for sql, a search for search, PromQL for metrics, a table for tables"
      ),
      Args.optional
    ),
    print: Options.boolean("print").pipe(
      Options.withDescription("Print the address instead of opening a browser")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      const url = consoleUrl(
        session,
        Option.getOrElse(flags.view, (): View => "sql"),
        Option.getOrUndefined(flags.text)
      )
      if (!flags.print && openBrowser(url)) return yield* errorLine(`Opened ${url}`)
      yield* line(url)
    })
).pipe(
  Command.withDescription(
    "Open the console's page for the profile's organization, cluster and database (printed when no browser can be opened, or with --print). Example: sluice open search 'status>=500' -d web"
  )
)
