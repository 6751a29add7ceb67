/**
 * The databases of an API key's cluster as read together with the key, so a data
 * request's database selection needs no second control-plane round trip. The list comes
 * with the key's lookup, which `ApiKeysRepo` may have cached for a few seconds; deleting
 * a database clears that cache, and a name missing from the list is looked up again.
 * Keyed by the caller object the request carries.
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
