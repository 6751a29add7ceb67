/** Pending invitations to organizations, of users who already have an account. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { OrganizationRole } from "../../domain/Identity.js"
import { OrganizationId, UserId } from "../../domain/Ids.js"

export class InvitationRow extends Schema.Class<InvitationRow>("InvitationRow")({
  id: Schema.UUID,
  organization_id: OrganizationId,
  organization_name: Schema.String,
  email: Schema.String,
  role: OrganizationRole,
  invited_by: Schema.NullOr(Schema.String),
  created_at: Schema.DateFromSelf
}) {}

const Accepted = Schema.Struct({ organization_name: Schema.String, role: OrganizationRole })

export class InvitationsRepo extends Effect.Service<InvitationsRepo>()("sluice/InvitationsRepo", {
  effect: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const invitations = sql`select i.id, i.organization_id, o.name as organization_name,
                                   u.email, i.role, b.email as invited_by, i.created_at
                            from invitations i
                            join organizations o on o.id = i.organization_id
                            join users u on u.id = i.user_id
                            left join users b on b.id = i.invited_by`
    const ofUser = SqlSchema.findAll({
      Request: UserId,
      Result: InvitationRow,
      execute: (userId) => sql`${invitations} where i.user_id = ${userId} order by i.created_at`
    })
    const ofOrganization = SqlSchema.findAll({
      Request: OrganizationId,
      Result: InvitationRow,
      execute: (id) => sql`${invitations} where i.organization_id = ${id} order by u.email`
    })
    const accept = SqlSchema.findOne({
      Request: Schema.Struct({ id: Schema.UUID, userId: UserId }),
      Result: Accepted,
      execute: ({ id, userId }) =>
        sql`with taken as (
              delete from invitations where id = ${id} and user_id = ${userId}
              returning organization_id, user_id, role
            ), joined as (
              insert into memberships (organization_id, user_id, role)
              select organization_id, user_id, role from taken
              on conflict (organization_id, user_id) do nothing
            )
            select o.name as organization_name, t.role
            from taken t join organizations o on o.id = t.organization_id`
    })
    const removed = (rows: ReadonlyArray<unknown>) => rows.length > 0
    return {
      /** Invites the user, or changes the role of the invitation they already have. */
      invite: (id: OrganizationId, userId: UserId, role: OrganizationRole, invitedBy: UserId) =>
        Effect.orDie(
          sql`insert into invitations (organization_id, user_id, role, invited_by)
              values (${id}, ${userId}, ${role}, ${invitedBy})
              on conflict (organization_id, user_id)
              do update set role = excluded.role, invited_by = excluded.invited_by`
        ),
      ofUser: (userId: UserId) => Effect.orDie(ofUser(userId)),
      ofOrganization: (id: OrganizationId) => Effect.orDie(ofOrganization(id)),
      /** Makes the user a member with the invitation's role; `None` if it is not theirs. */
      accept: (id: string, userId: UserId) => Effect.orDie(accept({ id, userId })),
      /** `false` when the user has no such invitation. */
      decline: (id: string, userId: UserId) =>
        Effect.orDie(
          Effect.map(
            sql`delete from invitations where id = ${id} and user_id = ${userId} returning id`,
            removed
          )
        ),
      /** `false` when the organization has no such invitation. */
      cancel: (organizationId: OrganizationId, id: string) =>
        Effect.orDie(
          Effect.map(
            sql`delete from invitations where id = ${id} and organization_id = ${organizationId}
                returning id`,
            removed
          )
        )
    }
  })
}) {}
