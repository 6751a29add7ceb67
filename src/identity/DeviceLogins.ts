/**
 * Where the command line's device logins wait for approval: in the control plane
 * (`device_logins`), so a login started through one node is approved through another and
 * collected through a third, or in memory (the flow's clock tests). Device codes and page
 * sessions are kept as SHA-256 digests: what is stored cannot be used to collect a token.
 * Each change is one conditional statement, so two nodes cannot both move a login on or
 * both hand out its token.
 */
import { createHash } from "node:crypto"
import { SqlClient } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { UserId } from "../../domain/Ids.js"

export const digest = (secret: string) => createHash("sha256").update(secret).digest("hex")

export interface LoginUser {
  readonly id: UserId
  readonly email: string
  readonly session_generation: number
}

export type LoginState =
  | { readonly _tag: "waiting" }
  | { readonly _tag: "signedIn"; readonly user: LoginUser; readonly pageSessionHash: string }
  | { readonly _tag: "approved"; readonly user: LoginUser }
  | { readonly _tag: "denied" }

/** The program that started a login, as it named itself (nothing checks it). */
export interface ClientSoftware {
  readonly name: string
  readonly version: string | null
}

export interface StoredLogin {
  readonly deviceCodeHash: string
  readonly userCode: string
  readonly client: string
  /** Null when the client named none. */
  readonly software: ClientSoftware | null
  readonly expiresAt: number
  readonly state: LoginState
}

/** The states a change may start from; `signedIn` only under that page session, if given. */
export interface From {
  readonly tags: ReadonlyArray<LoginState["_tag"]>
  readonly pageSessionHash?: string
}

export interface DeviceLoginStore {
  /** Forgets the logins expired at `now`; the number left. */
  readonly sweep: (now: number) => Effect.Effect<number>
  /** `false` when the user code (or device code) is taken. */
  readonly add: (login: StoredLogin) => Effect.Effect<boolean>
  readonly byDevice: (deviceCodeHash: string) => Effect.Effect<Option.Option<StoredLogin>>
  readonly byUser: (userCode: string) => Effect.Effect<Option.Option<StoredLogin>>
  /** Moves the login to `to` if it is in one of `from`'s states; whether it moved. */
  readonly move: (userCode: string, from: From, to: LoginState) => Effect.Effect<boolean>
  /** Takes an approved login away, once: its user, or none if it was not (or no longer) there. */
  readonly spend: (deviceCodeHash: string) => Effect.Effect<Option.Option<LoginUser>>
  readonly remove: (deviceCodeHash: string) => Effect.Effect<void>
}

const matches = (state: LoginState, from: From) =>
  from.tags.includes(state._tag) &&
  (from.pageSessionHash === undefined ||
    (state._tag === "signedIn" && state.pageSessionHash === from.pageSessionHash))

/** In this process's memory. */
export const memoryDeviceLogins = (): DeviceLoginStore => {
  const byDevice = new Map<string, StoredLogin>()
  const byUser = new Map<string, StoredLogin>()
  const put = (login: StoredLogin) => {
    byDevice.set(login.deviceCodeHash, login)
    byUser.set(login.userCode, login)
  }
  const drop = (login: StoredLogin) => {
    byDevice.delete(login.deviceCodeHash)
    byUser.delete(login.userCode)
  }
  return {
    sweep: (now) =>
      Effect.sync(() => {
        for (const login of byDevice.values()) if (login.expiresAt <= now) drop(login)
        return byDevice.size
      }),
    add: (login) =>
      Effect.sync(() => {
        if (byUser.has(login.userCode) || byDevice.has(login.deviceCodeHash)) return false
        put(login)
        return true
      }),
    byDevice: (hash) => Effect.sync(() => Option.fromNullable(byDevice.get(hash))),
    byUser: (code) => Effect.sync(() => Option.fromNullable(byUser.get(code))),
    move: (code, from, to) =>
      Effect.sync(() => {
        const login = byUser.get(code)
        if (login === undefined || !matches(login.state, from)) return false
        put({ ...login, state: to })
        return true
      }),
    spend: (hash) =>
      Effect.sync(() => {
        const login = byDevice.get(hash)
        if (login === undefined || login.state._tag !== "approved") return Option.none()
        drop(login)
        return Option.some(login.state.user)
      }),
    remove: (hash) =>
      Effect.sync(() => {
        const login = byDevice.get(hash)
        if (login !== undefined) drop(login)
      })
  }
}

const Row = Schema.Struct({
  device_code_hash: Schema.String,
  user_code: Schema.String,
  client: Schema.String,
  client_name: Schema.NullOr(Schema.String),
  client_version: Schema.NullOr(Schema.String),
  expires_at: Schema.Number,
  state: Schema.Literal("waiting", "signedIn", "approved", "denied"),
  user_id: Schema.NullOr(UserId),
  user_email: Schema.NullOr(Schema.String),
  user_session_generation: Schema.NullOr(Schema.Number),
  page_session_hash: Schema.NullOr(Schema.String)
})

const userOf = (row: typeof Row.Type): LoginUser | undefined =>
  row.user_id === null || row.user_email === null || row.user_session_generation === null
    ? undefined
    : { id: row.user_id, email: row.user_email, session_generation: row.user_session_generation }

const stateOf = (row: typeof Row.Type): LoginState => {
  const user = userOf(row)
  if (row.state === "signedIn" && user !== undefined && row.page_session_hash !== null) {
    return { _tag: "signedIn", user, pageSessionHash: row.page_session_hash }
  }
  if (row.state === "approved" && user !== undefined) return { _tag: "approved", user }
  return row.state === "denied" ? { _tag: "denied" } : { _tag: "waiting" }
}

const loginOf = (row: typeof Row.Type): StoredLogin => ({
  deviceCodeHash: row.device_code_hash,
  userCode: row.user_code,
  client: row.client,
  software:
    row.client_name === null ? null : { name: row.client_name, version: row.client_version },
  expiresAt: row.expires_at,
  state: stateOf(row)
})

const columnsOf = (state: LoginState) => {
  const user = state._tag === "signedIn" || state._tag === "approved" ? state.user : undefined
  return {
    state: state._tag,
    user_id: user?.id ?? null,
    user_email: user?.email ?? null,
    user_session_generation: user?.session_generation ?? null,
    page_session_hash: state._tag === "signedIn" ? state.pageSessionHash : null
  }
}

/** In the control plane: every node sees the same logins. */
export const sqlDeviceLogins = (sql: SqlClient.SqlClient): DeviceLoginStore => {
  const one = (rows: ReadonlyArray<unknown>) =>
    Effect.map(Schema.decodeUnknown(Schema.Array(Row))(rows), (decoded) =>
      Option.map(Option.fromNullable(decoded[0]), loginOf)
    )
  const store: DeviceLoginStore = {
    sweep: (now) =>
      Effect.zipRight(
        sql`DELETE FROM device_logins WHERE expires_at <= ${now}`,
        Effect.map(
          sql<{ n: number }>`SELECT count(*)::int AS n FROM device_logins`,
          (rows) => rows[0]?.n ?? 0
        )
      ).pipe(Effect.orDie),
    add: (login) =>
      Effect.map(
        sql`INSERT INTO device_logins ${sql.insert({
          device_code_hash: login.deviceCodeHash,
          user_code: login.userCode,
          client: login.client,
          client_name: login.software?.name ?? null,
          client_version: login.software?.version ?? null,
          expires_at: login.expiresAt,
          ...columnsOf(login.state)
        })} ON CONFLICT DO NOTHING RETURNING user_code`,
        (rows) => rows.length > 0
      ).pipe(Effect.orDie),
    byDevice: (hash) =>
      Effect.flatMap(sql`SELECT * FROM device_logins WHERE device_code_hash = ${hash}`, one).pipe(
        Effect.orDie
      ),
    byUser: (code) =>
      Effect.flatMap(sql`SELECT * FROM device_logins WHERE user_code = ${code}`, one).pipe(
        Effect.orDie
      ),
    move: (code, from, to) =>
      Effect.map(
        sql`UPDATE device_logins SET ${sql.update(columnsOf(to))}
            WHERE user_code = ${code} AND state IN ${sql.in([...from.tags])}
            ${from.pageSessionHash === undefined ? sql`` : sql`AND page_session_hash = ${from.pageSessionHash}`}
            RETURNING user_code`,
        (rows) => rows.length > 0
      ).pipe(Effect.orDie),
    spend: (hash) =>
      Effect.flatMap(
        sql`DELETE FROM device_logins WHERE device_code_hash = ${hash} AND state = 'approved'
            RETURNING *`,
        one
      ).pipe(
        Effect.map(Option.flatMap((login) => Option.fromNullable(userIn(login.state)))),
        Effect.orDie
      ),
    remove: (hash) =>
      Effect.asVoid(sql`DELETE FROM device_logins WHERE device_code_hash = ${hash}`).pipe(
        Effect.orDie
      )
  }
  return store
}

const userIn = (state: LoginState) =>
  state._tag === "approved" || state._tag === "signedIn" ? state.user : undefined

/** The service's store: the control plane's. */
export class DeviceLogins extends Effect.Service<DeviceLogins>()("sluice/DeviceLogins", {
  effect: Effect.map(SqlClient.SqlClient, sqlDeviceLogins)
}) {}
