/** Organizations and who belongs to them. */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Schema } from "effect"
import { OrganizationRole } from "../../domain/Identity.js"
import { OrganizationId, UserId } from "../../domain/Ids.js"

export class OrganizationRow extends Schema.Class<OrganizationRow>("OrganizationRow")({
  id: OrganizationId,
  name: Schema.String
}) {}

export class MembershipRow extends Schema.Class<MembershipRow>("MembershipRow")({
  organization_id: OrganizationId,
  organization_name: Schema.String,
  user_id: UserId,
  email: Schema.String,
  role: OrganizationRole
}) {}

export class OrganizationsRepo extends Effect.Service<OrganizationsRepo>()(
  "sluice/OrganizationsRepo",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const memberships = sql`select m.organization_id, o.name as organization_name, m.user_id,
                                     u.email, m.role
                              from memberships m
                              join organizations o on o.id = m.organization_id
                              join users u on u.id = m.user_id`
      const ofUser = SqlSchema.findAll({
        Request: UserId,
        Result: MembershipRow,
        execute: (userId) => sql`${memberships} where m.user_id = ${userId} order by o.name`
      })
      const ofOrganization = SqlSchema.findAll({
        Request: OrganizationId,
        Result: MembershipRow,
        execute: (id) => sql`${memberships} where m.organization_id = ${id} order by u.email`
      })
      const byName = SqlSchema.findOne({
        Request: Schema.String,
        Result: OrganizationRow,
        execute: (name) => sql`select id, name from organizations where name = ${name}`
      })
      const insert = SqlSchema.single({
        Request: Schema.String,
        Result: OrganizationRow,
        execute: (name) => sql`insert into organizations (name) values (${name}) returning id, name`
      })
      const insertNew = SqlSchema.findOne({
        Request: Schema.String,
        Result: OrganizationRow,
        execute: (name) =>
          sql`insert into organizations (name) values (${name})
              on conflict (name) do nothing returning id, name`
      })
      return {
        membershipsOfUser: (userId: UserId) => Effect.orDie(ofUser(userId)),
        members: (id: OrganizationId) => Effect.orDie(ofOrganization(id)),
        findByName: (name: string) => Effect.orDie(byName(name)),
        create: (name: string) => Effect.orDie(insert(name)),
        /** `None` when the name is taken. */
        createIfAbsent: (name: string) => Effect.orDie(insertNew(name)),
        /** Fails with the driver's error on a taken name (a unique violation). */
        rename: (id: OrganizationId, name: string) =>
          sql`update organizations set name = ${name} where id = ${id}`,
        /** Its memberships, clusters' rows, keys and saved searches go with it. */
        remove: (id: OrganizationId) =>
          Effect.orDie(sql`delete from organizations where id = ${id}`),
        /** Adds or changes a membership. */
        setRole: (id: OrganizationId, userId: UserId, role: OrganizationRole) =>
          Effect.orDie(
            sql`insert into memberships (organization_id, user_id, role)
                values (${id}, ${userId}, ${role})
                on conflict (organization_id, user_id) do update set role = excluded.role`
          ),
        removeMember: (id: OrganizationId, userId: UserId) =>
          Effect.orDie(
            sql`delete from memberships where organization_id = ${id} and user_id = ${userId}`
          )
      }
    })
  }
) {}
