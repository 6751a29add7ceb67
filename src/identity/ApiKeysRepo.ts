/**
 * Cluster API keys. Revoked keys keep their row (`revoked_at`) for the audit trail.
 *
 * Successful lookups by token digest are kept for `CACHE_TTL`, so a busy key costs
 * the control plane one lookup per interval rather than one per request. Anything that
 * changes what a lookup returns forgets them once it is committed, on every node: `revoke`
 * here, and a cluster renamed or deleted (published by the lifecycle as `ClusterEvents`). A lookup
 * that was under way when the cache was cleared does not store its (maybe stale) row.
 */
import { SqlClient, SqlSchema } from "@effect/sql"
import { Duration, Effect, Option, Schema } from "effect"
import { Permission } from "../../domain/Identity.js"
import { ApiKeyId, ClusterId, OrganizationId, UserId } from "../../domain/Ids.js"
import * as TtlCache from "../cache/TtlCache.js"
import { ClusterEvents } from "../clusters/ClusterEvents.js"

/** What a key is, as written at creation. */
const keyFields = {
  organization_id: OrganizationId,
  cluster_id: ClusterId,
  name: Schema.String,
  permission: Permission,
  default_database: Schema.String,
  token_hash: Schema.Uint8ArrayFromSelf,
  token_hint: Schema.String
}

export class ApiKeyRow extends Schema.Class<ApiKeyRow>("ApiKeyRow")({
  id: ApiKeyId,
  ...keyFields,
  created_at: Schema.DateFromSelf,
  last_used_at: Schema.NullOr(Schema.DateFromSelf)
}) {}

/** A live key with the names of its scope, as authentication needs it. */
export class ActiveApiKey extends ApiKeyRow.extend<ActiveApiKey>("ActiveApiKey")({
  organization_name: Schema.String,
  cluster_name: Schema.String
}) {}

export class NewApiKey extends Schema.Class<NewApiKey>("NewApiKey")({
  ...keyFields,
  created_by_user_id: Schema.NullOr(UserId),
  created_by_key_id: Schema.NullOr(ApiKeyId)
}) {}

/** How long a successful key lookup is reused. */
const CACHE_TTL = Duration.seconds(5)
const CACHE_MAX_KEYS = 10_000

const columns =
  "k.id, k.organization_id, k.cluster_id, k.name, k.permission, k.default_database, k.token_hash, k.token_hint, k.created_at, k.last_used_at"

export class ApiKeysRepo extends Effect.Service<ApiKeysRepo>()("sluice/ApiKeysRepo", {
  scoped: Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const cols = sql.literal(columns)
    const activeByHash = SqlSchema.findOne({
      Request: Schema.Uint8ArrayFromSelf,
      Result: ActiveApiKey,
      execute: (hash) =>
        sql`select ${cols}, o.name as organization_name, c.name as cluster_name
            from api_keys k
            join organizations o on o.id = k.organization_id
            join clusters c on c.id = k.cluster_id and c.deleted_at is null
            where k.token_hash = ${hash} and k.revoked_at is null`
    })
    const activeOfCluster = SqlSchema.findAll({
      Request: ClusterId,
      Result: ApiKeyRow,
      execute: (cluster) =>
        sql`select ${cols} from api_keys k
            where k.cluster_id = ${cluster} and k.revoked_at is null order by k.created_at`
    })
    const insert = SqlSchema.single({
      Request: NewApiKey,
      Result: ApiKeyRow,
      execute: (key) =>
        sql`insert into api_keys ${sql.insert(key)} returning ${sql.literal(columns.replaceAll("k.", ""))}`
    })
    const lookups = yield* TtlCache.shared("api_keys", {
      ttl: CACHE_TTL,
      capacity: CACHE_MAX_KEYS,
      lookup: (hash: Uint8Array) => Effect.orDie(activeByHash(hash)),
      keyOf: (hash) => Buffer.from(hash).toString("hex"),
      // A miss is asked again: nothing to spare, and a key created since must work.
      keep: Option.isSome
    })
    // A lookup carries its cluster's name, and only keys of live clusters are found.
    yield* Effect.flatMap(ClusterEvents, (events) => events.subscribe(() => lookups.invalidateHere))
    return {
      findActiveByHash: lookups.get,
      listActive: (cluster: ClusterId) => Effect.orDie(activeOfCluster(cluster)),
      create: (key: NewApiKey) => Effect.orDie(insert(key)),
      /** Revokes a live key of `cluster` found by id or by token digest; `false` if none. */
      revoke: (cluster: ClusterId, by: { readonly id: ApiKeyId } | { readonly hash: Uint8Array }) =>
        ("id" in by
          ? sql`update api_keys set revoked_at = now()
                where cluster_id = ${cluster} and id = ${by.id} and revoked_at is null
                returning id`
          : sql`update api_keys set revoked_at = now()
                where cluster_id = ${cluster} and token_hash = ${by.hash} and revoked_at is null
                returning id`
        ).pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie,
          Effect.ensuring(lookups.invalidateAll)
        ),
      /** Records use at most once a minute per key, so busy keys do not write per request. */
      touch: (id: ApiKeyId) =>
        Effect.orDie(
          sql`update api_keys set last_used_at = now()
              where id = ${id} and (last_used_at is null or last_used_at < now() - interval '1 minute')`
        )
    }
  })
}) {}
