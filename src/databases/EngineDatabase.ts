/**
 * The one mapping from a cluster's logical database name to the engine's database name.
 * Every statement that names a database goes through here: an engine of its own
 * cluster uses the logical name; clusters sharing a ClickHouse server get their
 * namespace's prefix (`src/provisioner/ServerNamespace.ts`).
 */
import type { AnalyticalEngine } from "../../domain/Engine.js"
import { quoteIdentifier } from "../engine/Sql.js"

/** The engine's own databases: the same name on every engine, never a cluster's. */
export const ENGINE_DATABASES = new Set(["system", "information_schema"])

export const engineDatabase = (
  engine: Pick<AnalyticalEngine, "databasePrefix">,
  name: string
): string => engine.databasePrefix + name

/** `engineDatabase`, quoted for splicing into SQL. */
export const quotedEngineDatabase = (
  engine: Pick<AnalyticalEngine, "databasePrefix">,
  name: string
): string => quoteIdentifier(engineDatabase(engine, name))
