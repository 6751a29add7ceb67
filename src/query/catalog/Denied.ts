/**
 * The review of the engine's functions and table functions for the user-level SQL path.
 * Every function of the engine's catalog (`EngineCatalog.gen.ts`) may be called except
 * those below, and no name outside the catalog may be called at all: a function an engine
 * gains later stays refused until it is reviewed here and the catalog regenerated.
 * Table functions are the reverse: only those listed as allowed, since nearly all of them
 * reach files, the network or other tables.
 *
 * A denial covers the name's aliases (`hostname` of `hostName`) and every spelling of it.
 */

/** Why a function is refused, worded for the error a caller reads. */
export type DenialReason =
  | "reads files of the host"
  | "reaches the network or other processes"
  | "tells the server's settings, host or identity"
  | "inspects or writes to the engine's internals"

const deny = (reason: DenialReason, names: string) =>
  names
    .split(/\s+/)
    .filter((name) => name !== "")
    .map((name) => [name, reason] as const)

export const DENIED_FUNCTIONS: ReadonlyMap<string, DenialReason> = new Map([
  ...deny(
    "reads files of the host",
    `file catboostEvaluate naiveBayesClassifier naiveBayesClassifierWithProb
     naiveBayesClassifierWithAllProbs regionHierarchy regionIn regionToArea regionToCity
     regionToContinent regionToCountry regionToDistrict regionToName regionToPopulation
     regionToTopContinent showCertificate`
  ),
  ...deny(
    "reaches the network or other processes",
    `aiClassify aiEmbed aiExtract aiGenerate aiTranslate dictGet dictGetAll dictGetChildren
     dictGetDate dictGetDateOrDefault dictGetDateTime dictGetDateTimeOrDefault
     dictGetDescendants dictGetFloat32 dictGetFloat32OrDefault dictGetFloat64
     dictGetFloat64OrDefault dictGetHierarchy dictGetIPv4 dictGetIPv4OrDefault dictGetIPv6
     dictGetIPv6OrDefault dictGetInt16 dictGetInt16OrDefault dictGetInt32
     dictGetInt32OrDefault dictGetInt64 dictGetInt64OrDefault dictGetInt8
     dictGetInt8OrDefault dictGetKeys dictGetOrDefault dictGetOrNull dictGetRoot
     dictGetString dictGetStringOrDefault dictGetUInt16 dictGetUInt16OrDefault
     dictGetUInt32 dictGetUInt32OrDefault dictGetUInt64 dictGetUInt64OrDefault dictGetUInt8
     dictGetUInt8OrDefault dictGetUUID dictGetUUIDOrDefault dictHas dictIsIn joinGet
     joinGetOrNull hasColumnInTable generateSerialID zookeeperSessionUptime`
  ),
  ...deny(
    "tells the server's settings, host or identity",
    `getServerSetting getMergeTreeSetting getMacro hostName FQDN displayName serverUUID
     uptime tcpPort getServerPort getOSKernelVersion filesystemAvailable filesystemCapacity
     filesystemUnreserved currentUser authenticatedUser currentProfiles currentRoles
     enabledProfiles enabledRoles defaultProfiles defaultRoles getClientHTTPHeader
     globalVariable buildId`
  ),
  ...deny(
    "inspects or writes to the engine's internals",
    `addressToLine addressToLineWithInlines addressToSymbol demangle tid logTrace
     transactionID transactionLatestSnapshot transactionOldestSnapshot hasThreadFuzzer
     fuzzQuery`
  )
])

/** Names the engine keeps for itself (`__getScalar`, `__applyFilter` …). */
export const isInternalName = (name: string): boolean => name.startsWith("__")

/**
 * The table functions a query may read from: generated rows and inline data. `view` and
 * `format` hold a statement or data the guard reads like the rest of the query.
 */
export const ALLOWED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set([
  "numbers",
  "numbers_mt",
  "zeros",
  "zeros_mt",
  "primes",
  "generateRandom",
  "generateSeries",
  "generate_series",
  "values",
  "null",
  "view",
  "format"
])
