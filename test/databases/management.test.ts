/**
 * Managing a cluster without HTTP: databases, API keys and tables through their
 * capabilities, as a program embedding sluice calls them, on the in-memory composition
 * (layers/Test.ts). The rules live in the capabilities, so they hold here as they do
 * through the endpoints: `default` stays, a reserved or taken name is refused, a key's
 * token appears once and stops working when revoked, a dropped table is gone with its data,
 * and a request's database is chosen the same way whichever transport asks.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Redacted, Stream } from "effect"
import { ApiKeys } from "../../domain/ApiKeys.js"
import { CreateKeyRequest } from "../../domain/api/KeysApi.js"
import { Authorization } from "../../domain/Authorization.js"
import { DatabaseSelection } from "../../domain/DatabaseSelection.js"
import { Databases } from "../../domain/Databases.js"
import { Authenticator } from "../../domain/Identity.js"
import { DatabaseName, TableName } from "../../domain/Ids.js"
import { IngestWriter } from "../../domain/IngestWriter.js"
import { Tables } from "../../domain/Tables.js"
import { InMemoryLive } from "../../layers/Test.js"
import { adminKeyCaller, tagOf } from "../support/inMemory.js"

const defaultDb = DatabaseName.make("default")

const adminScope = Effect.gen(function* () {
  const admin = yield* adminKeyCaller
  return yield* (yield* Authorization).clusterScope(admin, "manage_keys", {})
})

layer(InMemoryLive(), { timeout: 120_000 })("management capabilities", (it) => {
  it.effect("databases: created and removed together; default and reserved names stay", () =>
    Effect.gen(function* () {
      const scope = yield* adminScope
      const databases = yield* Databases
      const names = Effect.map(databases.list(scope), (all) => all.map((d) => d.name).sort())
      expect(yield* names).toEqual(["default"])

      const analytics = DatabaseName.make("analytics")
      expect((yield* databases.create(scope, analytics, undefined)).name).toBe("analytics")
      expect(yield* names).toEqual(["analytics", "default"])
      expect(yield* tagOf(databases.create(scope, analytics, undefined))).toBe("Conflict")
      expect(yield* tagOf(databases.create(scope, DatabaseName.make("System"), undefined))).toBe(
        "BadRequest"
      )

      expect(yield* tagOf(databases.remove(scope, defaultDb))).toBe("Conflict")
      expect(yield* tagOf(databases.remove(scope, DatabaseName.make("nowhere")))).toBe("NotFound")
      yield* databases.remove(scope, analytics)
      expect(yield* names).toEqual(["default"])
    })
  )

  it.effect("keys: the token once, masked in the list, refused once revoked", () =>
    Effect.gen(function* () {
      const scope = yield* adminScope
      const keys = yield* ApiKeys
      const authenticator = yield* Authenticator
      const created = yield* keys.create(
        scope,
        defaultDb,
        new CreateKeyRequest({ name: "reporting", permission: "read_only" })
      )
      expect(created.token.startsWith("rt_")).toBe(true)
      const listed = (yield* keys.list(scope)).find((k) => k.id === created.id)
      expect(listed).toMatchObject({ name: "reporting", permission: "read_only" })
      expect(listed!.token).not.toBe(created.token)
      expect(JSON.stringify(yield* keys.list(scope))).not.toContain(created.token)

      const caller = yield* authenticator.authenticate(Redacted.make(created.token))
      expect(caller._tag).toBe("ApiKeyCaller")

      yield* keys.revoke(scope, created.id)
      expect(yield* tagOf(authenticator.authenticate(Redacted.make(created.token)))).toBe(
        "Unauthorized"
      )
      expect((yield* keys.list(scope)).some((k) => k.id === created.id)).toBe(false)
      expect(yield* tagOf(keys.revoke(scope, created.id))).toBe("NotFound")
    })
  )

  it.effect("tables: listed with their rows, described by dotted columns, dropped", () =>
    Effect.gen(function* () {
      const scope = yield* adminScope
      const writer = yield* IngestWriter
      const tables = yield* Tables
      const events = TableName.make("events")
      const body = '{"request":{"geo":{"country":"DE"}},"ms":12}\n{"ms":40}\n'
      const outcome = yield* writer.insertRecords(scope, defaultDb, events, {
        bytes: Stream.make(new TextEncoder().encode(body)),
        format: "json",
        token: undefined
      })
      expect(outcome.inserted).toBe(2)

      const listed = (yield* tables.list(scope, defaultDb)).find((t) => t.name === "events")
      expect(listed?.total_rows).toBe(2)
      const described = yield* tables.describe(scope, defaultDb, events)
      expect(described.columns.map((c) => c.name)).toEqual(
        expect.arrayContaining(["request.geo.country", "ms"])
      )

      yield* tables.drop(scope, defaultDb, events)
      expect((yield* tables.list(scope, defaultDb)).some((t) => t.name === "events")).toBe(false)
      expect(yield* tagOf(tables.describe(scope, defaultDb, events))).toBe("NotFound")
      expect(yield* tagOf(tables.drop(scope, defaultDb, events))).toBe("NotFound")
    })
  )

  it.effect(
    "selection: the key's default when none is named; unknown and invalid names refused",
    () =>
      Effect.gen(function* () {
        const scope = yield* adminScope
        const selection = yield* DatabaseSelection
        const databases = yield* Databases
        expect(yield* selection.select(scope, undefined)).toBe("default")
        expect(yield* tagOf(selection.select(scope, "reports"))).toBe("DatabaseNotFound")
        expect(yield* tagOf(selection.select(scope, "no such/name"))).toBe("InvalidDatabaseName")
        yield* databases.create(scope, DatabaseName.make("reports"), undefined)
        expect(yield* selection.select(scope, "reports")).toBe("reports")
        yield* databases.remove(scope, DatabaseName.make("reports"))
        expect(yield* tagOf(selection.select(scope, "reports"))).toBe("DatabaseNotFound")
      })
  )
})
