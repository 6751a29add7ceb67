/** `version`: the CLI's version and the server's. */
import * as Command from "@effect/cli/Command"
import { Effect } from "effect"
import * as Http from "../Http.js"
import { line } from "../Output.js"
import { resolve, scopeOptions } from "../Session.js"
import { cliVersion } from "../Version.js"

export const version = Command.make("version", { ...scopeOptions }, (flags) =>
  Effect.gen(function* () {
    yield* line(`sluice CLI ${cliVersion} (node ${process.versions.node})`)
    const session = yield* resolve(flags)
    const server = yield* Http.json(
      { ...session, token: undefined },
      { method: "GET", path: "/v1/openapi.json" }
    ).pipe(
      Effect.map((doc) => (doc as { info?: { version?: string } }).info?.version ?? "unknown"),
      Effect.catchAll((e) => Effect.succeed(`unreachable (${e.message})`))
    )
    yield* line(`server ${session.url}: API ${server}`)
  })
).pipe(Command.withDescription("Print the CLI's version and the server's. Example: sluice version"))
