/** `login`, `logout`, `whoami`: credentials kept in a profile. */
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { Effect, Option, Redacted, Schedule } from "effect"
import { withClient } from "../Api.js"
import { openBrowser } from "../Browser.js"
import { badUsage, failure } from "../CliError.js"
import { errorLine, line, stdinIsTTY } from "../Output.js"
import * as Profiles from "../Profiles.js"
import type { Session } from "../Session.js"
import { resolve, scopeOptions } from "../Session.js"
import { askText, secret } from "../Stdin.js"

const deviceLogin = (session: Session, browser: boolean) =>
  withClient(session, (client) =>
    Effect.gen(function* () {
      const started = yield* client.deviceLogin.start()
      const opened = browser && openBrowser(started.verification_uri_complete)
      yield* errorLine(
        [
          `${opened ? "Opened" : "Open"} ${started.verification_uri_complete}`,
          `and check that it shows the code ${started.user_code}.`,
          "Waiting for approval… (Ctrl-C to stop)"
        ].join("\n")
      )
      return yield* client.deviceLogin
        .token({ payload: { device_code: started.device_code } })
        .pipe(
          Effect.retry({
            while: (e) => e._tag === "DeviceLoginPending",
            schedule: Schedule.spaced(`${Math.max(1, started.interval)} seconds`)
          })
        )
    })
  ).pipe(Effect.map((done) => ({ token: done.token, email: done.email })))

const passwordLogin = (session: Session, emailFlag: Option.Option<string>) =>
  Effect.gen(function* () {
    if (Option.isNone(emailFlag) && !stdinIsTTY())
      return yield* Effect.fail(badUsage("--email is needed when the password comes from stdin."))
    const email = Option.isSome(emailFlag) ? emailFlag.value : yield* askText("Email")
    const password = yield* secret("Password")
    const done = yield* withClient(session, (client) =>
      client.auth.login({ payload: { email, password: Redacted.make(password) } })
    )
    return { token: done.token, email: done.email }
  })

const keyLogin = (session: Session) =>
  Effect.gen(function* () {
    const key = yield* secret("API key")
    if (!key.startsWith("rt_")) return yield* Effect.fail(badUsage("An API key starts with rt_."))
    const scope = yield* withClient({ ...session, token: key }, (client) =>
      client.databases.list({ urlParams: {} })
    )
    return { token: key, organization: scope.organization.name, cluster: scope.cluster.name }
  })

/**
 * The user's organization when they belong to exactly one: kept in the profile, so the
 * commands that name an organization (clusters, apps, members) act where the data commands
 * do. None when they belong to several (the server's rule then picks `default`), or when
 * the list cannot be read: the login itself has succeeded.
 */
const onlyOrganization = (session: Session) =>
  withClient(session, (client) => client.organizations.list()).pipe(
    Effect.map(({ organizations }) =>
      organizations.length === 1 ? organizations[0]!.name : undefined
    ),
    Effect.orElseSucceed(() => undefined)
  )

export const login = Command.make(
  "login",
  {
    ...scopeOptions,
    apiKey: Options.boolean("api-key").pipe(
      Options.withDescription("Log in with an API key, read from stdin or typed at a prompt")
    ),
    password: Options.boolean("password").pipe(
      Options.withDescription("Log in with email and password (typed without echo, or piped)")
    ),
    email: Options.text("email").pipe(
      Options.withDescription("Email for --password"),
      Options.optional
    ),
    noBrowser: Options.boolean("no-browser").pipe(
      Options.withDescription("Print the approval address without opening a browser")
    )
  },
  (flags) =>
    Effect.gen(function* () {
      if (flags.apiKey && flags.password)
        return yield* Effect.fail(badUsage("Choose one of --api-key and --password."))
      const session = yield* resolve(flags)
      const got: { token: string; email?: string; organization?: string; cluster?: string } =
        flags.apiKey
          ? yield* keyLogin(session)
          : flags.password
            ? yield* passwordLogin(session, flags.email)
            : yield* deviceLogin(session, !flags.noBrowser)
      if (!flags.apiKey) {
        const only = yield* onlyOrganization({ ...session, token: got.token })
        if (only !== undefined) got.organization = only
      }
      const file = yield* Profiles.read
      const previous = file.profiles[session.profileName]
      const profile: Profiles.Profile = {
        ...previous,
        url: session.url,
        token: got.token,
        credential: flags.apiKey ? "api_key" : "session",
        ...(got.email === undefined ? {} : { email: got.email }),
        ...pick(flags, got)
      }
      if (flags.apiKey) delete (profile as { email?: string }).email
      yield* Profiles.write({
        current: session.profileName,
        profiles: { ...file.profiles, [session.profileName]: profile }
      })
      yield* errorLine(
        `Logged in to ${session.url} as ${got.email ?? `an API key of ${got.organization}/${got.cluster}`} (profile ${session.profileName}).`
      )
    })
).pipe(
  Command.withDescription(
    "Log in and keep the credential in a profile (device approval in the browser by default; --password; --api-key from stdin). Example: sluice login --url http://127.0.0.1:8080"
  )
)

const pick = (
  flags: {
    organization: Option.Option<string>
    cluster: Option.Option<string>
    database: Option.Option<string>
  },
  got: { organization?: string; cluster?: string }
) => {
  const organization = Option.getOrUndefined(flags.organization) ?? got.organization
  const cluster = Option.getOrUndefined(flags.cluster) ?? got.cluster
  const database = Option.getOrUndefined(flags.database)
  return {
    ...(organization === undefined ? {} : { organization }),
    ...(cluster === undefined ? {} : { cluster }),
    ...(database === undefined ? {} : { database })
  }
}

export const logout = Command.make("logout", { ...scopeOptions }, (flags) =>
  Effect.gen(function* () {
    const session = yield* resolve(flags)
    const file = yield* Profiles.read
    const profile = file.profiles[session.profileName]
    if (profile?.token === undefined)
      return yield* errorLine(`Profile ${session.profileName} holds no credential.`)
    if (profile.credential === "session")
      // Ends the session on the server too; a session that already ended is no reason to stop.
      yield* withClient({ ...session, token: profile.token }, (client) =>
        client.auth.logout()
      ).pipe(Effect.catchAll((e) => errorLine(`(the server did not confirm: ${e.message})`)))
    const { token: _, ...rest } = profile
    yield* Profiles.write({ ...file, profiles: { ...file.profiles, [session.profileName]: rest } })
    yield* errorLine(`Logged out of ${profile.url} (profile ${session.profileName}).`)
  })
).pipe(
  Command.withDescription(
    "Forget the profile's credential (and end the session on the server). Example: sluice logout"
  )
)

export const whoami = Command.make(
  "whoami",
  { ...scopeOptions, json: Options.boolean("json").pipe(Options.withDescription("Print JSON")) },
  (flags) =>
    Effect.gen(function* () {
      const session = yield* resolve(flags)
      if (session.token === undefined)
        return yield* Effect.fail(
          failure(
            `Not logged in to ${session.url} (profile ${session.profileName}).`,
            "Run `sluice login`."
          )
        )
      const facts: Record<string, string | undefined> = {
        profile: session.profileName,
        url: session.url,
        credential: session.credential === "api_key" ? "API key" : "session",
        email: session.email
      }
      if (session.credential === "api_key") {
        const scope = yield* withClient(session, (client) =>
          client.databases.list({ urlParams: {} })
        )
        facts.organization = scope.organization.name
        facts.cluster = scope.cluster.name
      } else {
        const orgs = yield* withClient(session, (client) => client.organizations.list())
        facts.organizations = orgs.organizations.map((o) => `${o.name} (${o.role})`).join(", ")
        facts.organization = session.organization
        facts.cluster = session.cluster
      }
      facts.database = session.database
      const known = Object.entries(facts).filter(
        (entry): entry is [string, string] => entry[1] !== undefined
      )
      if (flags.json) return yield* line(JSON.stringify(Object.fromEntries(known), null, 2))
      for (const [name, value] of known) yield* line(`${`${name}:`.padEnd(15)}${value}`)
    })
).pipe(
  Command.withDescription(
    "Show the profile in use and check its credential with the server. Example: sluice whoami"
  )
)
