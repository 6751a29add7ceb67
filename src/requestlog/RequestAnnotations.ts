/**
 * What the request log learns from inside a request: who called and in which scope.
 *
 * Why a per-request mutable record in the Context rather than span attributes: the
 * scope is resolved deep inside handlers (by the `Authenticator` and `Authorization`),
 * while the record is written by the outermost middleware after the response is sent.
 * Span attributes would work for strings but would also leak user emails and key names
 * into any exporting tracer, and need parsing back. The middleware provides one fresh
 * record per request; reporters use `serviceOption`, so code that runs outside an HTTP
 * request (bootstrap, tests) reports nothing and needs nothing.
 */
import { Clock, Context, Effect, Option } from "effect"
import type { Caller } from "../../domain/Identity.js"
import type { ClusterId, OrganizationId } from "../../domain/Ids.js"

export interface RequestAnnotationsShape {
  organizationId: OrganizationId | null
  clusterId: ClusterId | null
  organization: string | null
  cluster: string | null
  keyName: string | null
  userId: string | null
  userEmail: string | null
  /** The key's stored default database; the request may select another. */
  defaultDatabase: string | null
  /** When the caller was authenticated: where the endpoint's own work begins. */
  authenticatedAtNanos: bigint | null
  /** Tables a query read (FROM/JOIN), for `table:` searches. */
  tables: ReadonlyArray<string>
  /** Whether the request's statement was an EXPLAIN, for `type:explain` searches. */
  explain: boolean
}

export class RequestAnnotations extends Context.Tag("sluice/RequestAnnotations")<
  RequestAnnotations,
  RequestAnnotationsShape
>() {
  static readonly empty = (): RequestAnnotationsShape => ({
    organizationId: null,
    clusterId: null,
    organization: null,
    cluster: null,
    keyName: null,
    userId: null,
    userEmail: null,
    defaultDatabase: null,
    authenticatedAtNanos: null,
    tables: [],
    explain: false
  })
}

const annotate = (update: (annotations: RequestAnnotationsShape) => void) =>
  Effect.map(Effect.serviceOption(RequestAnnotations), Option.map(update))

/** An authenticated caller; an API key also fixes the organization and cluster. */
export const reportCaller = (caller: Caller) =>
  Effect.flatMap(Clock.currentTimeNanos, (now) =>
    annotate((a) => {
      a.authenticatedAtNanos ??= now
      reportIdentity(a, caller)
    })
  )

const reportIdentity = (a: RequestAnnotationsShape, caller: Caller) => {
  if (caller._tag === "UserCaller") {
    a.userId = caller.userId
    a.userEmail = caller.email
    return
  }
  a.keyName = caller.keyName
  a.organizationId = caller.organizationId
  a.organization = caller.organizationName
  a.clusterId = caller.clusterId
  a.cluster = caller.clusterName
  a.defaultDatabase = caller.defaultDatabase
}

/** A query's statement is an EXPLAIN. */
export const reportExplain = annotate((a) => {
  a.explain = true
})

/** The tables a query refers to (a bounded number: they are kept with the entry). */
export const reportTables = (tables: ReadonlyArray<string>) =>
  annotate((a) => {
    a.tables = [...new Set([...a.tables, ...tables.map((t) => t.slice(0, 256))])].slice(0, 64)
  })

/** The organization and cluster a request was allowed to act on. */
export const reportScope = (scope: {
  readonly organizationId: OrganizationId
  readonly organizationName: string
  readonly clusterId?: ClusterId
  readonly clusterName?: string
}) =>
  annotate((a) => {
    a.organizationId = scope.organizationId
    a.organization = scope.organizationName
    if (scope.clusterId !== undefined && scope.clusterName !== undefined) {
      a.clusterId = scope.clusterId
      a.cluster = scope.clusterName
    }
  })
