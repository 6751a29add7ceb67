/**
 * Before sluice uses a ClickHouse server (`SLUICE_CLICKHOUSE_URL`): the server answers,
 * accepts the configured user, and that user holds what sluice will ask of it. Anything
 * missing stops the start with one line naming it (`src/main.ts`), rather than every
 * cluster's engine failing, and being retried, once the service runs.
 */
import { ClickHouseError } from "@clickhouse/client"
import type { ClickHouseClient } from "@clickhouse/client"
import { Data, Effect } from "effect"
import { unreachableReason } from "../engine/EngineMessage.js"
import { ACCESS_PRIVILEGES, NAMESPACE_PRIVILEGES } from "./ServerNamespace.js"

export class ClickHouseUnusable extends Data.TaggedError("ClickHouseUnusable")<{
  readonly message: string
}> {}

export interface PreflightOptions {
  /** Where the server is, without credentials (what the line names). */
  readonly origin: string
  readonly username: string
  readonly accessControl: boolean
}

// The server's error codes for a login it refuses: no such user or a wrong password,
// a password given to a user without one, a user not allowed from this address.
const LOGIN_REFUSED = new Set(["516", "194", "195"])
const UNKNOWN_STATEMENT = "62"

const firstLine = (text: string) =>
  text
    .split("\n", 1)[0]!
    .replace(/\s*\(version [^)]*\)\s*$/, "")
    .trim()

const failureOf = (options: PreflightOptions) => (error: unknown) => {
  const at = `the ClickHouse server at ${options.origin} (SLUICE_CLICKHOUSE_URL)`
  if (error instanceof ClickHouseError && LOGIN_REFUSED.has(error.code)) {
    return new ClickHouseUnusable({
      message:
        `${at} refused user '${options.username}' (SLUICE_CLICKHOUSE_USER, ` +
        `SLUICE_CLICKHOUSE_PASSWORD): wrong password, no such user, or not allowed from here`
    })
  }
  if (error instanceof ClickHouseError) {
    return new ClickHouseUnusable({ message: `${at} answered: ${firstLine(error.message)}` })
  }
  const reason =
    unreachableReason(error) ?? (error instanceof Error ? firstLine(error.message) : String(error))
  return new ClickHouseUnusable({ message: `${at} cannot be reached: ${reason}` })
}

export const check = Effect.fn("ServerPreflight.check")(function* (
  client: ClickHouseClient,
  options: PreflightOptions
) {
  const failure = failureOf(options)
  // `exec`: `CHECK GRANT` takes no FORMAT clause, which `query` would add.
  const answer = (query: string) =>
    Effect.tryPromise({
      try: async () => {
        const { stream } = await client.exec({ query })
        let text = ""
        for await (const chunk of stream) text += String(chunk)
        return text.trim()
      },
      catch: (error) => error
    })
  yield* Effect.mapError(answer("SELECT 1"), failure)

  // `CHECK GRANT` (ClickHouse 24.4 and later) says whether the user holds a privilege.
  const lacking = (privileges: ReadonlyArray<string>, on: string) =>
    Effect.filter(privileges, (privilege) =>
      Effect.map(answer(`CHECK GRANT ${privilege} ON ${on}`), (held) => held !== "1")
    )
  const user = `ClickHouse user '${options.username}' at ${options.origin}`
  yield* Effect.gen(function* () {
    const data = yield* lacking(NAMESPACE_PRIVILEGES, "`sluice_namespace__default`.*")
    if (data.length > 0) {
      return yield* new ClickHouseUnusable({
        message:
          `${user} lacks ${data.join(", ")} ON \`sluice_*\`.*, which sluice needs for ` +
          "the clusters' databases: grant them to it (SLUICE_CLICKHOUSE_USER)"
      })
    }
    if (!options.accessControl) return
    const access = yield* lacking(ACCESS_PRIVILEGES, "*.*")
    if (access.length > 0) {
      return yield* new ClickHouseUnusable({
        message:
          `${user} cannot manage access, which gives each cluster its own user: it lacks ` +
          `${access.join(", ")} ON *.* (and, for the clusters' users, GRANT OPTION on ` +
          `\`sluice_*\`.*); grant them (a users.xml user needs <access_management>1</access_management>), ` +
          "or set SLUICE_CLICKHOUSE_ACCESS_CONTROL=off to run every cluster as this user, " +
          "not isolated from each other by the server"
      })
    }
  }).pipe(
    Effect.catchIf(
      (error) => error instanceof ClickHouseError && error.code === UNKNOWN_STATEMENT,
      () => Effect.logWarning(`${user}: its privileges could not be checked (no CHECK GRANT)`)
    ),
    Effect.mapError((error) => (error instanceof ClickHouseUnusable ? error : failure(error)))
  )
})
