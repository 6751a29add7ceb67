/** Users of the control plane. Emails are stored lower-cased. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId } from "../../domain/Ids.js"

export class UserRow extends Schema.Class<UserRow>("UserRow")({
  id: UserId,
  email: Schema.String,
  password_hash: Schema.NullOr(Schema.String)
}) {}

export class UsersRepo extends Effect.Service<UsersRepo>()("sluice/UsersRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const byEmail = SqlSchema.findOne({
      Request: Schema.String,
      Result: UserRow,
      execute: (email) =>
        sql`select id, email, password_hash from users where email = ${email.toLowerCase()}`
    })
    const byId = SqlSchema.findOne({
      Request: UserId,
      Result: UserRow,
      execute: (id) => sql`select id, email, password_hash from users where id = ${id}`
    })
    const insert = SqlSchema.single({
      Request: Schema.Struct({ email: Schema.String, password_hash: Schema.NullOr(Schema.String) }),
      Result: UserRow,
      execute: (user) =>
        sql`insert into users (email, password_hash)
            values (${user.email.toLowerCase()}, ${user.password_hash})
            returning id, email, password_hash`
    })
    return {
      // PostgreSQL text cannot hold NUL: no user has such an email, and asking would fail.
      findByEmail: (email: string) =>
        email.includes("\u0000") ? Effect.succeedNone : Effect.orDie(byEmail(email)),
      findById: (id: UserId) => Effect.orDie(byId(id)),
      create: (email: string, passwordHash: string | null) =>
        Effect.orDie(insert({ email, password_hash: passwordHash }))
    }
  })
}) {}
