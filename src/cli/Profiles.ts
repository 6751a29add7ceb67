/**
 * Named profiles, one per server or identity, in `$XDG_CONFIG_HOME/sluice/profiles.json`
 * (else `~/.config/sluice/`): the server's address, the credential (a session token or
 * an API key) and the organization, cluster and database to use by default. The file
 * holds secrets, so it is written with mode 0600 in a directory of mode 0700.
 */
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { failure } from "./CliError.js"

export const Profile = Schema.Struct({
  url: Schema.String,
  token: Schema.optional(Schema.String),
  /** `session`: a user's session token (from login); `api_key`: an `rt_` key. */
  credential: Schema.optional(Schema.Literal("session", "api_key")),
  email: Schema.optional(Schema.String),
  organization: Schema.optional(Schema.String),
  cluster: Schema.optional(Schema.String),
  database: Schema.optional(Schema.String)
})
export type Profile = typeof Profile.Type

const ProfilesFile = Schema.Struct({
  current: Schema.optional(Schema.String),
  profiles: Schema.Record({ key: Schema.String, value: Profile })
})
export type ProfilesFile = typeof ProfilesFile.Type

export const configDir = () => {
  const xdg = process.env.XDG_CONFIG_HOME
  return path.join(
    xdg !== undefined && xdg !== "" ? xdg : path.join(os.homedir(), ".config"),
    "sluice"
  )
}

export const profilesPath = () => path.join(configDir(), "profiles.json")

const empty: ProfilesFile = { profiles: {} }

export const read = Effect.suspend(() => {
  const file = profilesPath()
  if (!fs.existsSync(file)) return Effect.succeed(empty)
  return Effect.try(() => JSON.parse(fs.readFileSync(file, "utf8")) as unknown).pipe(
    Effect.flatMap(Schema.decodeUnknown(ProfilesFile)),
    Effect.mapError(() =>
      failure(
        `${file} is not a profiles file sluice can read.`,
        "Fix or remove it, then log in again."
      )
    )
  )
})

export const write = (profiles: ProfilesFile) =>
  Effect.try({
    try: () => {
      const dir = configDir()
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
      const file = profilesPath()
      const partial = `${file}.${process.pid}.tmp`
      fs.writeFileSync(partial, `${JSON.stringify(profiles, null, 2)}\n`, { mode: 0o600 })
      fs.chmodSync(partial, 0o600)
      fs.renameSync(partial, file)
    },
    catch: (e) => failure(`Cannot write ${profilesPath()}: ${(e as Error).message}`)
  })

/** The profile in use: `--profile`, else `SLUICE_PROFILE`, else the last logged in, else `default`. */
export const selectedName = (file: ProfilesFile, flag: string | undefined) =>
  flag ?? nonEmpty(process.env.SLUICE_PROFILE) ?? file.current ?? "default"

const nonEmpty = (value: string | undefined) =>
  value === undefined || value === "" ? undefined : value

export const envOverride = (name: "SLUICE_URL" | "SLUICE_TOKEN") => nonEmpty(process.env[name])

/** Whether the profile in use holds a credential (or SLUICE_TOKEN gives one), without a request. */
export const hasCredential = () =>
  envOverride("SLUICE_TOKEN") !== undefined ||
  Effect.runSync(
    read.pipe(
      Effect.map((file) => file.profiles[selectedName(file, undefined)]?.token !== undefined),
      Effect.orElseSucceed(() => false)
    )
  )
