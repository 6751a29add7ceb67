/** Users of the control plane. Emails are stored lower-cased. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId } from "../../domain/Ids.js"

export class UserRow extends Schema.Class<UserRow>("UserRow")({
  id: UserId,
  email: Schema.String,
  password_hash: Schema.NullOr(Schema.String),
  /** Moves on when every session of the user ends (a password change). */
  session_generation: Schema.Int
}) {}

export class UsersRepo extends Effect.Service<UsersRepo>()("sluice/UsersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const byEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (email) =>
        sql`select id, email, password_hash, session_generation
            from users where email = ${email.toLowerCase()}`
    })
    const byId = SqlSchema.findOne({
      Request: UserId,
      Result: UserRow,
      execute: (id) =>
        sql`select id, email, password_hash, session_generation from users where id = ${id}`
    })
    const insert = SqlSchema.single({
      Request: Schema.Struct({ email: Schema.String, password_hash: Schema.NullOr(Schema.String) }),
      Result: UserRow,
      execute: (user) =>
        sql`insert into users (email, password_hash)
            values (${user.email.toLowerCase()}, ${user.password_hash})
            returning id, email, password_hash, session_generation`
    })
    const insertNew = SqlSchema.findOne({
      Request: Schema.Struct({ email: Schema.String, password_hash: Schema.NullOr(Schema.String) }),
      Result: UserRow,
      execute: (user) =>
        sql`insert into users (email, password_hash)
            values (${user.email.toLowerCase()}, ${user.password_hash})
            on conflict (email) do nothing
            returning id, email, password_hash, session_generation`
    })
    const newPassword = SqlSchema.single({
      Request: Schema.Struct({ id: UserId, password_hash: Schema.String }),
      Result: UserRow,
      execute: ({ id, password_hash }) =>
        sql`update users
            set password_hash = ${password_hash}, session_generation = session_generation + 1
            where id = ${id}
            returning id, email, password_hash, session_generation`
    })
    return {
      // PostgreSQL text cannot hold NUL: no user has such an email, and asking would fail.
      findByEmail: (email: string) =>
        email.includes("\u0000") ? Effect.succeedNone : Effect.orDie(byEmail(email)),
      findById: (id: UserId) => Effect.orDie(byId(id)),
      create: (email: string, passwordHash: string | null) =>
        Effect.orDie(insert({ email, password_hash: passwordHash })),
      /** `None` when the email already has an account (that account is left as it is). */
      createIfAbsent: (email: string, passwordHash: string | null) =>
        Effect.orDie(insertNew({ email, password_hash: passwordHash })),
      /** Sets the password and ends every session the user has. */
      changePassword: (id: UserId, passwordHash: string) =>
        Effect.orDie(newPassword({ id, password_hash: passwordHash }))
    }
  })
}) {}
