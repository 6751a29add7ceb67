/** What ends a session before its expiry: sign-out (by session id) and a new session generation. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { UserId } from "../../domain/Ids.js"

export class SessionUserRow extends Schema.Class<SessionUserRow>("SessionUserRow")({
  id: UserId,
  email: Schema.String,
  session_generation: Schema.Int,
  revoked: Schema.Boolean
}) {}

export class SessionsRepo extends Effect.Service<SessionsRepo>()("sluice/SessionsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const userOf = SqlSchema.findOne({
      Request: Schema.Struct({ userId: UserId, sessionId: Schema.String }),
      Result: SessionUserRow,
      execute: ({ userId, sessionId }) =>
        sql`select u.id, u.email, u.session_generation,
                   exists (select 1 from revoked_sessions r where r.id = ${sessionId}) as revoked
            from users u where u.id = ${userId}`
    })
    return {
      /** The session's user, and whether the session was signed out. One round trip. */
      userOf: (userId: UserId, sessionId: string) => Effect.orDie(userOf({ userId, sessionId })),
      /** Ends one session; the ids of sessions that have expired anyway are dropped. */
      revoke: (userId: UserId, sessionId: string, expiresAt: Date, now: Date) =>
        Effect.orDie(
          Effect.zipRight(
            sql`delete from revoked_sessions where expires_at < ${now}`,
            sql`insert into revoked_sessions (id, user_id, expires_at)
                values (${sessionId}, ${userId}, ${expiresAt})
                on conflict (id) do nothing`
          )
        )
    }
  })
}) {}
