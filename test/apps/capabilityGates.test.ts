/**
 * Every app capability checks its app itself: a program that embeds sluice and calls one
 * directly (no transport in between) on a cluster without the app is refused with
 * `AppNotInstalled`, as a client of the endpoints is; once the app is installed the same
 * calls get past the gate. On the in-memory composition (layers/Test.ts).
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Option } from "effect"
import { AppIds } from "../../domain/AppIds.js"
import { AppRegistry } from "../../domain/AppRegistry.js"
import { Authorization } from "../../domain/Authorization.js"
import { EventCollector } from "../../domain/EventCollector.js"
import { FirstStart } from "../../domain/FirstStart.js"
import { UserCaller } from "../../domain/Identity.js"
import { DatabaseName, TableName } from "../../domain/Ids.js"
import { OtlpExports } from "../../domain/OtlpExports.js"
import { InstantQuery, PromQL } from "../../domain/PromQL.js"
import { RemoteWrite } from "../../domain/RemoteWrite.js"
import { SavedSearches } from "../../domain/SavedSearches.js"
import { SplSearch, SplSearchQuery } from "../../domain/SplSearch.js"
import { InMemoryLive } from "../../layers/Test.js"
import { UsersRepo } from "../../src/identity/UsersRepo.js"
import { adminKeyCaller, tagOf } from "../support/inMemory.js"

const database = DatabaseName.make("default")
const place = { organization: "default", cluster: "default" }
const nowhere = { database: undefined }

const span = {
  resourceSpans: [
    {
      resource: { attributes: [] },
      scopeSpans: [
        {
          scope: {},
          spans: [
            {
              traceId: "5b8efff798038103d269b633813fc60c",
              spanId: "eee19b7ec3c1b174",
              name: "checkout",
              kind: 1,
              startTimeUnixNano: "1700000000000000000",
              endTimeUnixNano: "1700000001000000000"
            }
          ]
        }
      ]
    }
  ]
}
const spanBytes = new TextEncoder().encode(JSON.stringify(span))

const event = {
  time: 1_700_000_000_000,
  raw: "checkout ok",
  host: "web-1",
  source: "test",
  sourcetype: "text",
  index: "default",
  fields: {}
}

const splQuery = new SplSearchQuery({
  spl: "search checkout | head 1",
  includeFieldStatistics: false,
  explain: true,
  queryId: "gate-spl"
})

/** The admin user of the first start, as a signed-in user would call. */
const adminUser = Effect.gen(function* () {
  const firstStart = yield* FirstStart
  const { email } = Option.getOrThrowWith(firstStart, () => new Error("not a first start"))
  const user = Option.getOrThrowWith(
    yield* (yield* UsersRepo).findByEmail(email),
    () => new Error("no admin user")
  )
  return new UserCaller({ userId: user.id, email, via: "session" })
})

layer(InMemoryLive(), { timeout: 120_000 })("app capabilities gate themselves", (it) => {
  it.effect(
    "each refuses a cluster without its app, and lets calls through once it is installed",
    () =>
      Effect.gen(function* () {
        const admin = yield* adminKeyCaller
        const user = yield* adminUser
        const scope = yield* (yield* Authorization).clusterScope(admin, "insert", {})
        const otlp = yield* OtlpExports
        const remoteWrite = yield* RemoteWrite
        const collector = yield* EventCollector
        const spl = yield* SplSearch
        const saved = yield* SavedSearches
        const promql = yield* PromQL
        // What a program holding a target already (not asking `target`) would pass.
        const otlpTarget = { scope, database, table: TableName.make("traces") }
        const collectorTarget = { scope, database }
        const instant = new InstantQuery({ query: "vector(1)", time: 1_700_000_000_000 })
        const garbage = new Uint8Array([1, 2, 3])

        const refused = {
          otlpTarget: yield* tagOf(otlp.target(admin, "traces", nowhere, undefined)),
          otlpIngest: yield* tagOf(otlp.ingest(otlpTarget, "traces", "json", spanBytes)),
          remoteWrite: yield* tagOf(remoteWrite.write(admin, nowhere, garbage)),
          collectorTarget: yield* tagOf(collector.target(admin, nowhere)),
          collectorStore: yield* tagOf(collector.store(collectorTarget, [event])),
          splSearch: yield* tagOf(spl.search(scope, database, splQuery)),
          savedSearches: yield* tagOf(saved.list(user, place, {})),
          promql: yield* tagOf(promql.instant(scope, database, instant))
        }
        expect(refused).toEqual({
          otlpTarget: "AppNotInstalled",
          otlpIngest: "AppNotInstalled",
          remoteWrite: "AppNotInstalled",
          collectorTarget: "AppNotInstalled",
          collectorStore: "AppNotInstalled",
          splSearch: "AppNotInstalled",
          savedSearches: "AppNotInstalled",
          promql: "AppNotInstalled"
        })

        const apps = yield* AppRegistry
        for (const app of [AppIds.otlp, AppIds.metrics, AppIds.spl])
          yield* apps.install(scope.clusterId, app)

        const target = yield* otlp.target(admin, "traces", nowhere, undefined)
        expect(target.table).toBe("traces")
        expect(yield* otlp.ingest(target, "traces", "json", spanBytes)).toMatchObject({
          accepted: 1,
          rejected: 0
        })
        // Past the gate, a body that is no snappy block is the sender's error.
        expect(yield* tagOf(remoteWrite.write(admin, nowhere, garbage))).toBe("BadRequest")
        const at = yield* collector.target(admin, nowhere)
        expect(yield* collector.store(at, [event])).toBe(1)
        // Explained, not run: the compiled search and no rows.
        expect(yield* spl.search(scope, database, splQuery)).toMatchObject({ rows: 0, data: [] })
        expect((yield* saved.list(user, place, {})).searches).toEqual([])
        expect(yield* promql.instant(scope, database, instant)).toMatchObject({ _tag: "vector" })
      })
  )
})
