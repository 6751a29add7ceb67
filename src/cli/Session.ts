/**
 * Where a command sends its requests and as whom: the options every command takes
 * (`--profile`, `--url`, `--organization`, `--cluster`, `--database`), over
 * `SLUICE_URL`/`SLUICE_TOKEN`, over the selected profile.
 */
import * as Options from "@effect/cli/Options"
import { Effect, Option } from "effect"
import { badUsage, failure } from "./CliError.js"
import * as Profiles from "./Profiles.js"

export const DEFAULT_URL = "http://127.0.0.1:8080"

const text = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

/** Spread into every command's options. */
export const scopeOptions = {
  profile: text("profile", "Profile to use (default: SLUICE_PROFILE, else the last logged in)"),
  url: text("url", "Server address (default: SLUICE_URL, else the profile's)"),
  organization: text("organization", "Organization name (default: the profile's)"),
  cluster: text("cluster", "Cluster name (default: the profile's)"),
  database: Options.text("database").pipe(
    Options.withAlias("d"),
    Options.withDescription("Database (default: the profile's, else the key's default)"),
    Options.optional
  )
}

export interface ScopeFlags {
  readonly profile: Option.Option<string>
  readonly url: Option.Option<string>
  readonly organization: Option.Option<string>
  readonly cluster: Option.Option<string>
  readonly database: Option.Option<string>
}

export interface Session {
  readonly profileName: string
  readonly url: string
  readonly token: string | undefined
  readonly credential: Profiles.Profile["credential"]
  readonly email: string | undefined
  readonly organization: string | undefined
  readonly cluster: string | undefined
  readonly database: string | undefined
}

/** Where the server's address came from, for a refusal that says which to fix. */
const urlOf = (flags: ScopeFlags, profile: Profiles.Profile | undefined, profileName: string) => {
  const given = Option.getOrUndefined(flags.url)
  const env = Profiles.envOverride("SLUICE_URL")
  const [url, from] =
    given !== undefined
      ? [given, "--url"]
      : env !== undefined
        ? [env, "SLUICE_URL"]
        : profile?.url !== undefined
          ? [profile.url, `the url of profile ${profileName}`]
          : [DEFAULT_URL, "the default"]
  return /^https?:\/\/[^\s/?#]+/i.test(url)
    ? Effect.succeed(url.replace(/\/+$/, ""))
    : Effect.fail(
        badUsage(
          `${from} ${JSON.stringify(url)} is not an http:// or https:// address.`,
          "An address is written in full, for example http://127.0.0.1:8080."
        )
      )
}

export const resolve = (flags: ScopeFlags) =>
  Effect.flatMap(Profiles.read, (file) => {
    const profileName = Profiles.selectedName(file, Option.getOrUndefined(flags.profile))
    const profile = file.profiles[profileName]
    return Effect.map(urlOf(flags, profile, profileName), (url) =>
      sessionOf(flags, profileName, profile, url)
    )
  })

const sessionOf = (
  flags: ScopeFlags,
  profileName: string,
  profile: Profiles.Profile | undefined,
  url: string
): Session => {
  const envToken = Profiles.envOverride("SLUICE_TOKEN")
  const token = envToken ?? profile?.token
  return {
    profileName,
    url,
    token,
    credential:
      envToken !== undefined
        ? envToken.startsWith("rt_")
          ? "api_key"
          : "session"
        : profile?.credential,
    email: envToken !== undefined ? undefined : profile?.email,
    organization: Option.getOrUndefined(flags.organization) ?? profile?.organization,
    cluster: Option.getOrUndefined(flags.cluster) ?? profile?.cluster,
    database: Option.getOrUndefined(flags.database) ?? profile?.database
  }
}

export const requireToken = (session: Session) =>
  session.token === undefined
    ? Effect.fail(
        failure(
          `Not logged in to ${session.url} (profile ${session.profileName}).`,
          "Run `sluice login`, or set SLUICE_TOKEN."
        )
      )
    : Effect.succeed(session.token)

/** The session of `flags`, failing with the login hint when it holds no credential. */
export const signedIn = (flags: ScopeFlags) =>
  Effect.tap(resolve(flags), (session) => requireToken(session))

/** The scope query parameters of data endpoints. */
export const dataScope = (session: Session) => ({
  ...(session.organization === undefined ? {} : { organization: session.organization }),
  ...(session.cluster === undefined ? {} : { cluster: session.cluster }),
  ...(session.database === undefined ? {} : { database: session.database })
})

/** Organization and cluster, which user-credential endpoints (clusters, apps) need. */
export const organizationOf = (session: Session) => session.organization ?? "default"
export const clusterOf = (session: Session) => session.cluster ?? "default"
