/**
 * `where`, `eval`, `stats`, `sort`, `head`, `dedup`, `fields`, `table`, `rename` of
 * the SPL subset, compiled and run on the hand-made events of events.ts. Expectations are
 * worked out by hand from each rule; the base search hands rows on newest first.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { ids, openEvents, rowsOf, search } from "./events.js"

const chdb = await openEvents()

const idCases: ReadonlyArray<
  readonly [rule: string, spl: string, expected: ReadonlyArray<string>]
> = [
  [
    "where: an unquoted word is a field, so method=GET compares two fields (GET is none)",
    "| where method=GET",
    []
  ],
  [
    "where: a double-quoted string is a literal, compared case-sensitively",
    '| where method="GET"',
    ["e3", "e1"]
  ],
  [
    'where: a comparison with a missing field is null, so user!="alice" drops events without user',
    '| where user!="alice"',
    ["e12", "e11", "e8", "e7", "e6", "e5", "e2"]
  ],
  [
    'where: numeric strings act as numbers ("1200", "15000" > 1000; "99" is not)',
    "| where bytes > 1000",
    ["e10", "e1"]
  ],
  [
    "where: a null comparison does not sink an OR whose other side is true",
    '| where bytes > 1000 OR user="bob"',
    ["e10", "e7", "e2", "e1"]
  ],
  [
    "where: NOT of a null comparison is null too (bytes missing or not numeric drops the event)",
    "| where NOT (bytes > 1000)",
    ["e11", "e8", "e5", "e2"]
  ],
  [
    "where: AND before OR: web-1 OR (web-2 AND bob)",
    '| where host="web-1" OR host="web-2" AND user="bob"',
    ["e11", "e9", "e3", "e2", "e1"]
  ],
  [
    "where: NOT and parentheses",
    '| where NOT (host="web-1" OR host="web-2") AND isnotnull(user)',
    ["e12", "e8", "e7", "e5"]
  ],
  [
    'eval: arithmetic with null is null (no bytes, or bytes="abc")',
    "| eval x=bytes*2 | where isnull(x)",
    ["e12", "e9", "e7", "e6", "e4", "e3"]
  ],
  [
    "eval: `.` concatenation with null is null",
    '| eval s=user . "!" | where isnull(s)',
    ["e10", "e4", "e3"]
  ],
  [
    "eval: a later assignment sees an earlier one (alice, Alice, carol: 5 letters)",
    "| eval a=len(user), b=a*10 | where b=50",
    ["e9", "e6", "e5", "e1"]
  ],
  [
    "eval overwrites a field",
    '| eval user="x" | where user="x" AND isnotnull(bytes)',
    ["e11", "e10", "e8", "e5", "e3", "e2", "e1"]
  ],
  [
    "like(): % any run, _ one character, anchored, case-sensitive",
    '| where like(user, "a%")',
    ["e9", "e1"]
  ],
  ["like(): _ is one character", '| where like(user, "_ob")', ["e7", "e2"]],
  [
    "substr(): 1-based, a negative start counts from the end",
    '| where substr(host, 1, 3)="db-" OR substr(host, -2)="-3"',
    ["e8", "e7", "e5", "e4"]
  ],
  ["match(): an unanchored regular expression", '| where match(msg, "rr")', ["e2", "e1"]],
  [
    "`| search` applies the search language mid-pipeline",
    "| eval k=1 | search user=ALICE",
    ["e9", "e5", "e1"]
  ],
  [
    "head: 10 results by default, newest first",
    "| head",
    ["e12", "e11", "e10", "e9", "e8", "e7", "e6", "e5", "e4", "e3"]
  ],
  ["head N", "| head 3", ["e12", "e11", "e10"]],
  ["dedup keeps the newest event per value", "| dedup host", ["e12", "e11", "e10", "e8", "e5"]],
  [
    "dedup drops events without the field; values are compared as written (alice ≠ Alice)",
    "| dedup user",
    ["e12", "e11", "e9", "e8", "e7", "e6", "e5"]
  ],
  [
    "dedup keeps the first in the order an earlier sort produced",
    "bytes=* NOT bytes=abc | sort bytes | dedup host",
    ["e8", "e5", "e11", "e2"]
  ],
  [
    "dedup N keeps N per value",
    "host=web-1 OR host=web-2 | dedup 2 host",
    ["e11", "e10", "e9", "e6"]
  ],
  [
    "sort: numeric values numerically, descending with -",
    "bytes=* NOT bytes=abc | sort -bytes",
    ["e10", "e1", "e2", "e11", "e5", "e8"]
  ],
  [
    "sort: a leading count limits the output",
    "bytes=* NOT bytes=abc | sort 3 bytes",
    ["e8", "e5", "e11"]
  ],
  ["sort: limit= is the same", "NOT bytes=abc | sort bytes limit=2", ["e8", "e5"]],
  [
    "sort: IPv4 addresses sort as addresses, not as text",
    '| eval ip=case(id="e1", "10.0.0.9", id="e2", "10.0.0.10", id="e3", "9.1.1.1") | where isnotnull(ip) | sort ip',
    ["e3", "e1", "e2"]
  ],
  [
    "stats: the BY keyword in either case",
    '| stats count BY host | where host="db-1" AND count=2 | eval id="db-1 has 2"',
    ["db-1 has 2"]
  ],
  [
    "sort: a later head takes the first of the sorted rows",
    "NOT bytes=abc | sort -bytes | head 2",
    ["e10", "e1"]
  ]
]

layer(SplCompilerLive)("SPL pipelines", (it) => {
  for (const [rule, spl, expected] of idCases)
    it.effect(`${rule}: ${spl}`, () =>
      Effect.map(ids(chdb, spl), (found) => expect(found).toEqual(expected))
    )

  it.effect("sort: a missing field is last both ascending and descending", () =>
    Effect.gen(function* () {
      const descending = yield* ids(chdb, "NOT bytes=abc | sort -bytes")
      expect(descending.slice(0, 6)).toEqual(["e10", "e1", "e2", "e11", "e5", "e8"])
      expect(new Set(descending.slice(6))).toEqual(new Set(["e4", "e6", "e7", "e9", "e12"]))
      const ascending = yield* ids(chdb, "NOT bytes=abc | sort bytes")
      expect(ascending.slice(0, 6)).toEqual(["e8", "e5", "e11", "e2", "e1", "e10"])
      expect(new Set(ascending.slice(6))).toEqual(new Set(["e4", "e6", "e7", "e9", "e12"]))
    })
  )

  it.effect("sort: text by code point (uppercase before lowercase), missing last", () =>
    Effect.map(search(chdb, "| sort user | table user"), (rows) =>
      expect(rows.map((r) => r["user"])).toEqual([
        "Alice",
        "alice",
        "alice",
        "bob",
        "bob",
        "carol",
        "dave",
        "erin",
        "o'brien",
        null,
        null,
        null
      ])
    )
  )

  it.effect(
    "eval functions: upper, len, round, tonumber, tostring, coalesce, if, case, substr",
    () =>
      Effect.map(
        search(
          chdb,
          "id=e1 OR id=e10 | eval u=upper(user), l=len(user), r=round(tonumber(bytes)/7, 1), " +
            't=tostring(status) . "", c=coalesce(user, host), k=if(status>=500, "bad", "ok"), ' +
            'w=case(status=500, "five", 1==1, "other"), p=substr(host, 1, 3), h=round(2.5), n=round(-2.5) ' +
            "| table id, u, l, r, t, c, k, w, p, h, n"
        ),
        (rows) =>
          expect(rows).toEqual([
            {
              id: "e10",
              u: null,
              l: null,
              r: 2142.9,
              t: "504",
              c: "web-2",
              k: "bad",
              w: "other",
              p: "web",
              h: 3,
              n: -3
            },
            {
              id: "e1",
              u: "ALICE",
              l: 5,
              r: 171.4,
              t: "500",
              c: "alice",
              k: "bad",
              w: "five",
              p: "web",
              h: 3,
              n: -3
            }
          ])
      )
  )

  it.effect("eval: _time is epoch seconds; + concatenates text, adds numbers", () =>
    Effect.map(
      search(chdb, 'id=e1 | eval t=_time, s="a" + 1, n=1 + 2 * 3, m=-bytes | table t, s, n, m'),
      // e1 is at 2026-01-01T00:01:00Z = 1767225660 s.
      (rows) => expect(rows).toEqual([{ t: 1767225660, s: "a1", n: 7, m: -1200 }])
    )
  )

  it.effect("stats count over no events is one row with 0", () =>
    Effect.map(search(chdb, "nosuchtermanywhere | stats count"), (rows) =>
      expect(rows).toEqual([{ count: 0 }])
    )
  )

  it.effect("stats by: one row per value, ascending by code point", () =>
    Effect.map(search(chdb, "| stats count by host"), (rows) =>
      expect(rows).toEqual([
        { host: "db-1", count: 2 },
        { host: "we'b", count: 1 },
        { host: "web-1", count: 4 },
        { host: "web-2", count: 3 },
        { host: "web-3", count: 2 }
      ])
    )
  )

  it.effect("stats by: events missing a BY field are left out", () =>
    Effect.map(search(chdb, "| stats count by user"), (rows) =>
      expect(rows).toEqual([
        { user: "Alice", count: 1 },
        { user: "alice", count: 2 },
        { user: "bob", count: 2 },
        { user: "carol", count: 1 },
        { user: "dave", count: 1 },
        { user: "erin", count: 1 },
        { user: "o'brien", count: 1 }
      ])
    )
  )

  it.effect(
    "stats: columns named after the call or AS; sum/avg numeric; max numeric; values sorted",
    () =>
      Effect.map(
        search(
          chdb,
          "host=web-2 | stats avg(bytes), max(status) as top, dc(user), values(method), sum(bytes), count(user)"
        ),
        (rows) =>
          expect(rows).toEqual([
            {
              "avg(bytes)": 7900,
              top: "504",
              "dc(user)": 2,
              "values(method)": ["POST"],
              "sum(bytes)": 15800,
              "count(user)": 2
            }
          ])
      )
  )

  it.effect("stats: dc and values take values as text; values in code-point order", () =>
    Effect.map(search(chdb, "| stats dc(status) as statuses, values(user) as users"), (rows) =>
      expect(rows).toEqual([
        { statuses: 8, users: ["Alice", "alice", "bob", "carol", "dave", "erin", "o'brien"] }
      ])
    )
  )

  it.effect("stats then sort: by a computed column, descending", () =>
    Effect.map(search(chdb, "| stats count by host | sort -count, host | head 3"), (rows) =>
      expect(rows).toEqual([
        { host: "web-1", count: 4 },
        { host: "web-2", count: 3 },
        { host: "db-1", count: 2 }
      ])
    )
  )

  it.effect(
    "fields keeps the named fields and _time/_raw; table exactly the named ones in order",
    () =>
      Effect.gen(function* () {
        const compiler = yield* SplCompiler
        const fields = yield* compiler.compile("id=e1 | fields id, host", {})
        expect(fields.columns).toEqual(["_time", "_raw", "id", "host"])
        expect(fields.resultKind).toBe("events")
        expect((yield* compiler.compile("id=e1 | table id", {})).resultKind).toBe("statistics")
        expect((yield* compiler.compile("| stats count | eval n=1", {})).resultKind).toBe(
          "statistics"
        )
        const table = yield* search(chdb, "id=e1 | table host, id")
        expect(table).toEqual([{ host: "web-1", id: "e1" }])
        expect(Object.keys(table[0]!)).toEqual(["host", "id"])
        const kept = yield* search(chdb, "id=e1 | fields id")
        expect(kept).toEqual([
          { _time: "2026-01-01 00:01:00.000", _raw: "error: disk full", id: "e1" }
        ])
      })
  )

  it.effect("rename: left to right, the old name is gone", () =>
    Effect.map(
      search(
        chdb,
        "id=e1 | rename user AS who, host AS h, who AS person | table id, person, who, user, h"
      ),
      (rows) =>
        expect(rows).toEqual([{ id: "e1", person: "alice", who: null, user: null, h: "web-1" }])
    )
  )

  it.effect("the stages: one per command, each with its own SQL and rows", () =>
    Effect.gen(function* () {
      const compiled = yield* (yield* SplCompiler).compile(
        "user=* | where bytes > 50 | stats count by host",
        {}
      )
      expect(compiled.stages.map((s) => [s.command, s.expression, s.position])).toEqual([
        ["search", "user=*", 0],
        ["where", "where bytes > 50", 9],
        ["stats", "stats count by host", 28]
      ])
      const counts = yield* Effect.forEach(compiled.stages, (stage) =>
        Effect.promise(() => rowsOf(chdb, stage.sql).then((rows) => rows.length))
      )
      // user=*: 9 events; bytes > 50 among them: e1 1200, e2 800, e5 99, e11 100; hosts web-1, web-2, db-1.
      expect(counts).toEqual([9, 4, 3])
      expect(compiled.sql).toBe(compiled.stages[2]!.sql)
    })
  )
})
