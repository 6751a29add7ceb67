/**
 * Rules of the SPL subset the first suites left out, each case named after its rule, over the
 * events of events.ts (newest first: e12 … e1). Hosts newest first: we'b, web-1, web-2,
 * web-1, web-3, web-3, web-2, db-1, db-1, web-1, web-2, web-1. Worked out by hand.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { ids, openEvents, search } from "./events.js"

const chdb = await openEvents()

const idCases: ReadonlyArray<
  readonly [rule: string, spl: string, expected: ReadonlyArray<string>]
> = [
  ["field names are case-sensitive: USER is not user", "USER=alice", []],
  ["field names are case-sensitive for metadata too: HOST is not host", "HOST=*", []],
  [
    "where: single quotes name a field with odd characters",
    `| where 'k8s.pod.name'="api-7"`,
    ["e7"]
  ],
  ["where: == is =", '| where host=="db-1"', ["e5", "e4"]],
  ["search: XOR is no operator, only a term no event has", "host=web-1 XOR host=web-2", []],
  [
    "dedup: keepempty=true keeps every event without the field",
    "| dedup user keepempty=true",
    ["e12", "e11", "e10", "e9", "e8", "e7", "e6", "e5", "e4", "e3"]
  ],
  [
    "dedup: keepempty=false is the default (events without user dropped)",
    "| dedup user keepempty=false",
    ["e12", "e11", "e9", "e8", "e7", "e6", "e5"]
  ],
  [
    "dedup: consecutive=true drops only repeats that follow one another (e7 after e8, e4 after e5)",
    "| dedup host consecutive=true",
    ["e12", "e11", "e10", "e9", "e8", "e6", "e5", "e3", "e2", "e1"]
  ],
  [
    "dedup: sortby reorders the kept events (ids descending as text)",
    "| dedup host sortby -id",
    ["e8", "e5", "e12", "e11", "e10"]
  ],
  [
    "dedup: sortby with several keys",
    "| dedup host sortby +host, -id",
    ["e5", "e12", "e11", "e10", "e8"]
  ],
  [
    "dedup: several fields, first per combination; e11 and e6 have no method, e2 and e1 repeat e10 and e3",
    "host=web-1 OR host=web-2 | dedup host method",
    ["e10", "e9", "e3"]
  ],
  ["sort: + is ascending, as no sign", "NOT bytes=abc | sort +bytes | head 3", ["e8", "e5", "e11"]]
]

layer(SplCompilerLive)("SPL rules", (it) => {
  for (const [rule, spl, expected] of idCases)
    it.effect(`${rule}: ${spl}`, () =>
      Effect.map(ids(chdb, spl), (found) => expect(found).toEqual(expected))
    )

  it.effect(
    "stats list(): values in the rows' order (newest first), repeats kept; values() distinct and sorted",
    () =>
      Effect.map(search(chdb, "host=web-1 | stats list(user) as users, values(user)"), (rows) =>
        // web-1 newest first: e11 erin, e9 alice, e3 (no user), e1 alice.
        expect(rows).toEqual([
          { users: ["erin", "alice", "alice"], "values(user)": ["alice", "erin"] }
        ])
      )
  )

  it.effect("stats list() follows an earlier sort", () =>
    Effect.map(search(chdb, "host=web-2 | sort user | stats list(user) as users"), (rows) =>
      expect(rows).toEqual([{ users: ["bob", "carol"] }])
    )
  )

  it.effect("a new name with spaces is double-quoted: rename, stats AS, table", () =>
    Effect.map(
      search(
        chdb,
        '| stats count AS "Event Count" by host | rename host AS "the host" | table "the host", "Event Count" | head 1'
      ),
      (rows) => expect(rows).toEqual([{ "the host": "db-1", "Event Count": 2 }])
    )
  )

  it.effect(
    "refused: dedup options that are not true/false, sortby without keys, consecutive with N",
    () =>
      Effect.gen(function* () {
        const compiler = yield* SplCompiler
        for (const [spl, says] of [
          ["| dedup host keepempty=maybe", /keepempty=maybe is neither true nor false/],
          ["| dedup host sortby", /sortby needs at least one field/],
          ["| dedup 2 host consecutive=true", /one event per run/]
        ] as const) {
          const error = yield* Effect.flip(compiler.compile(spl, {}))
          expect(error.command, spl).toBe("dedup")
          expect(error.message).toMatch(says)
        }
      })
  )
})
