/**
 * The databases of an API key's cluster as read together with the key, so a data
 * request's database selection needs no second control-plane round trip. The list is
 * read while authenticating the same request, so it is as fresh as a separate lookup
 * a moment later would be. Keyed by the caller object the request carries.
 */
import type { Caller } from "../../domain/Identity.js"
import type { ClusterId } from "../../domain/Ids.js"

interface Known {
  readonly clusterId: ClusterId
  readonly names: ReadonlySet<string>
}

const known = new WeakMap<Caller, Known>()

export const rememberDatabases = (
  caller: Caller,
  clusterId: ClusterId,
  names: ReadonlyArray<string>
) => {
  known.set(caller, { clusterId, names: new Set(names) })
}

/** `cluster`'s databases if the caller's authentication read them, else `undefined`. */
export const databasesOf = (caller: Caller, cluster: ClusterId) => {
  const found = known.get(caller)
  return found?.clusterId === cluster ? found.names : undefined
}
