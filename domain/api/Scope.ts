/** Query parameters that select where a request acts. */
import { Schema } from "effect"

/**
 * `organization` and `cluster` names. With an API key they must match the key's scope;
 * with a user credential they choose it (no organization: the user's only one, else their
 * organization `default`; no cluster: the organization's only one, else its cluster
 * `default`).
 */
export const ScopeParams = Schema.Struct({
  organization: Schema.optional(Schema.String),
  cluster: Schema.optional(Schema.String)
})

/** `ScopeParams` plus the database (also accepted as the `x-service-database` header). */
export const DataScopeParams = Schema.Struct({
  ...ScopeParams.fields,
  database: Schema.optional(Schema.String)
})

export const OrganizationRef = Schema.Struct({ name: Schema.String })
export const ClusterRef = Schema.Struct({ id: Schema.String, name: Schema.String })
export const DatabaseRef = Schema.Struct({ name: Schema.String })

export const Deleted = Schema.Struct({ deleted: Schema.Literal(true) })
