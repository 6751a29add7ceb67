/**
 * The first control-plane schema: identity, clusters and their databases, API keys, apps,
 * saved searches, and a small key/value table for service facts such as "bootstrapped".
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  yield* sql`CREATE TABLE organizations (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    name text NOT NULL UNIQUE,
    created_at timestamptz NOT NULL DEFAULT now()
  )`

  // Emails are compared case-insensitively by storing them lower-cased.
  yield* sql`CREATE TABLE users (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    email text NOT NULL UNIQUE CHECK (email = lower(email)),
    password_hash text NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`

  yield* sql`CREATE TABLE memberships (
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role text NOT NULL CHECK (role IN ('admin', 'member')),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, user_id)
  )`
  yield* sql`CREATE INDEX memberships_user_id ON memberships (user_id)`

  yield* sql`CREATE TABLE clusters (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name text NOT NULL,
    phase text NOT NULL DEFAULT 'provisioning'
      CHECK (phase IN ('provisioning', 'ready', 'pausing', 'paused', 'resuming', 'deleting')),
    status_message text NULL,
    paused_by text NULL CHECK (paused_by IN ('admin', 'idle')),
    replicas integer NOT NULL DEFAULT 1,
    shards integer NOT NULL DEFAULT 1,
    cpu_cores numeric NOT NULL,
    memory_gib numeric NOT NULL,
    min_cpu_cores numeric NOT NULL,
    min_memory_gib numeric NOT NULL,
    max_cpu_cores numeric NOT NULL,
    max_memory_gib numeric NOT NULL,
    idle_timeout_minutes integer NOT NULL DEFAULT 0,
    byo_s3 jsonb NULL,
    last_activity_at timestamptz NOT NULL DEFAULT now(),
    created_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz NULL
  )`
  // A deleted cluster's name may be taken again.
  yield* sql`CREATE UNIQUE INDEX clusters_organization_id_name
    ON clusters (organization_id, name) WHERE deleted_at IS NULL`

  yield* sql`CREATE TABLE databases (
    cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    name text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, name)
  )`

  yield* sql`CREATE TABLE api_keys (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    name text NOT NULL,
    permission text NOT NULL CHECK (permission IN ('admin', 'read_write', 'write_only', 'read_only')),
    default_database text NOT NULL,
    token_hash bytea NOT NULL UNIQUE,
    token_hint text NOT NULL,
    created_by_user_id uuid NULL REFERENCES users (id) ON DELETE SET NULL,
    created_by_key_id uuid NULL REFERENCES api_keys (id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    last_used_at timestamptz NULL,
    revoked_at timestamptz NULL
  )`
  yield* sql`CREATE INDEX api_keys_cluster_id ON api_keys (cluster_id)`

  yield* sql`CREATE TABLE apps (
    cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    app_id text NOT NULL,
    installed_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (cluster_id, app_id)
  )`

  yield* sql`CREATE TABLE saved_searches (
    id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
    organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    cluster_id uuid NOT NULL REFERENCES clusters (id) ON DELETE CASCADE,
    name text NOT NULL,
    spl text NOT NULL,
    earliest text NULL,
    latest text NULL,
    visualization text NOT NULL DEFAULT 'table' CHECK (visualization IN ('table', 'chart')),
    span_minutes integer NULL,
    keep_results boolean NOT NULL DEFAULT false,
    database text NOT NULL,
    visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('private', 'shared')),
    created_by uuid NOT NULL REFERENCES users (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`
  yield* sql`CREATE INDEX saved_searches_cluster_id ON saved_searches (cluster_id)`

  yield* sql`CREATE TABLE service_state (
    key text PRIMARY KEY,
    value jsonb NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`
})
