/**
 * Saved searches in the control plane (`saved_searches`), with their creator's email.
 * Who may see or change a row is `SavedSearchesLive`'s decision; this file only reads and
 * writes rows of one cluster. Names are unique per creator within a cluster (an index).
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Effect, Option, Schema } from "effect"
import { Visibility, Visualization } from "../../../domain/api/SavedSearchesApi.js"
import type { SavedSearchFilters } from "../../../domain/api/SavedSearchesApi.js"
import { DuplicateSavedSearchName } from "../../../domain/Errors.js"
import { ClusterId, OrganizationId, SavedSearchId, UserId } from "../../../domain/Ids.js"
import { isUniqueViolation } from "../../store/UniqueViolation.js"

/** What a search is, as its creator wrote it. */
const settings = {
  name: Schema.String,
  spl: Schema.String,
  earliest: Schema.NullOr(Schema.String),
  latest: Schema.NullOr(Schema.String),
  visualization: Visualization,
  span_minutes: Schema.NullOr(Schema.Int),
  keep_results: Schema.Boolean,
  database: Schema.String,
  visibility: Visibility
}

export class SavedSearchRow extends Schema.Class<SavedSearchRow>("SavedSearchRow")({
  id: SavedSearchId,
  ...settings,
  creator_id: UserId,
  /** The creator's email. */
  created_by: Schema.String,
  created_at: Schema.DateFromSelf,
  updated_at: Schema.DateFromSelf
}) {}

export class NewSavedSearch extends Schema.Class<NewSavedSearch>("NewSavedSearch")({
  organization_id: OrganizationId,
  cluster_id: ClusterId,
  created_by: UserId,
  ...settings
}) {}

/** The settings an update changes; those absent or undefined are left as they are. */
export type SavedSearchChanges = {
  readonly [K in keyof typeof settings]?: (typeof settings)[K]["Type"] | undefined
}

/** The list's cap. */
export const LIST_LIMIT = 200

const duplicate = (name: string) =>
  new DuplicateSavedSearchName({
    message: `You already have a saved search named '${name}' in this cluster.`,
    hint: "Pick another name, or change the existing search with PATCH /v1/apps/spl/searches/{search_id}."
  })

const failOnDuplicate =
  (name: string | undefined) =>
  <A, R>(effect: Effect.Effect<A, unknown, R>) =>
    Effect.catchAll(effect, (error) =>
      name !== undefined && isUniqueViolation(error)
        ? Effect.fail(duplicate(name))
        : Effect.die(error)
    )

export class SavedSearchesRepo extends Effect.Service<SavedSearchesRepo>()(
  "sluice/SavedSearchesRepo",
  {
    effect: Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const columns = sql`s.id, s.name, s.spl, s.earliest, s.latest, s.visualization,
        s.span_minutes, s.keep_results, s.database, s.visibility, s.created_by as creator_id,
        u.email as created_by, s.created_at, s.updated_at`
      const rows = sql`select ${columns} from saved_searches s join users u on u.id = s.created_by`

      const byId = SqlSchema.findOne({
        Request: Schema.Struct({ cluster: ClusterId, id: SavedSearchId }),
        Result: SavedSearchRow,
        execute: (r) => sql`${rows} where s.cluster_id = ${r.cluster} and s.id = ${r.id}`
      })
      const find = (cluster: ClusterId, id: SavedSearchId) => Effect.orDie(byId({ cluster, id }))

      return {
        find,

        /**
         * The cluster's searches `viewer` may see (their own and the shared ones) that pass
         * `filters`, by name; one more than the cap, so the caller knows there are more.
         */
        visible: (cluster: ClusterId, viewer: UserId, filters: SavedSearchFilters) => {
          const where = [
            sql`s.cluster_id = ${cluster}`,
            sql`(s.created_by = ${viewer} or s.visibility = 'shared')`
          ]
          // strpos, not LIKE: the text is a substring, never a pattern.
          if (filters.search !== undefined)
            where.push(sql`(strpos(lower(s.name), lower(${filters.search})) > 0
              or strpos(lower(s.spl), lower(${filters.search})) > 0)`)
          if (filters.created_by !== undefined)
            where.push(sql`u.email = lower(${filters.created_by})`)
          if (filters.database !== undefined) where.push(sql`s.database = ${filters.database}`)
          if (filters.visibility !== undefined)
            where.push(sql`s.visibility = ${filters.visibility}`)
          return SqlSchema.findAll({
            Request: Schema.Void,
            Result: SavedSearchRow,
            execute: () =>
              sql`${rows} where ${sql.and(where)}
                  order by lower(s.name), s.name, u.email, s.id limit ${LIST_LIMIT + 1}`
          })(undefined).pipe(Effect.orDie)
        },

        create: (search: NewSavedSearch) =>
          sql<{
            id: string
          }>`insert into saved_searches ${sql.insert({ ...search })} returning id`.pipe(
            failOnDuplicate(search.name),
            Effect.flatMap((inserted) =>
              find(search.cluster_id, Schema.decodeSync(SavedSearchId)(inserted[0]!.id))
            ),
            Effect.flatMap(
              Option.match({
                onNone: () => Effect.dieMessage("a saved search vanished as it was created"),
                onSome: Effect.succeed
              })
            )
          ),

        /** Changes a search of `creator`'s; none when it is gone. */
        update: (
          cluster: ClusterId,
          id: SavedSearchId,
          creator: UserId,
          changes: SavedSearchChanges
        ) => {
          const set = Object.fromEntries(
            Object.entries(changes).filter(([, value]) => value !== undefined)
          )
          return sql`update saved_searches set ${
            Object.keys(set).length === 0
              ? sql`updated_at = now()`
              : sql`${sql.update(set)}, updated_at = now()`
          }
              where cluster_id = ${cluster} and id = ${id} and created_by = ${creator}`.pipe(
            failOnDuplicate(changes.name),
            Effect.zipRight(find(cluster, id))
          )
        },

        remove: (cluster: ClusterId, id: SavedSearchId) =>
          sql`delete from saved_searches where cluster_id = ${cluster} and id = ${id}`.pipe(
            Effect.asVoid,
            Effect.orDie
          )
      }
    })
  }
) {}
