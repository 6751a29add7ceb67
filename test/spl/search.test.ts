/**
 * The base search of the SPL subset, compiled and run on the hand-made events of events.ts.
 * Every expectation is worked out by hand from the rule it names; rows come newest
 * first (the base search's order), so e12 before e1.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { at, ids, openEvents } from "./events.js"

const chdb = await openEvents()

const cases: ReadonlyArray<readonly [rule: string, spl: string, expected: ReadonlyArray<string>]> =
  [
    // Terms and phrases against _raw segments, case-insensitive.
    [
      'a term matches between breakers: `error:`, `upstream_error`, `"error"`, `Error-prone`, JSON `"ERROR"`; not `errors`, `terror`',
      "error",
      ["e7", "e6", "e4", "e3", "e1"]
    ],
    [
      "`err*` is a prefix over segments (ERR_TIMEOUT, errors, erratic), not inside `terror`",
      "err*",
      ["e10", "e7", "e6", "e4", "e3", "e2", "e1"]
    ],
    ["`404` matches the segment of /api/items/404", "404", ["e3"]],
    ["in a JSON event the key names are terms", "level", ["e4"]],
    ["a phrase needs its terms adjacent and in order", '"connection refused"', ["e10", "e4"]],
    ["a phrase with a backslash and a quote matches literally", '"O\'Brien said"', ["e12"]],
    ["terms side by side are ANDed", "connection refused peer", ["e4"]],
    // field=value: whole value, case-insensitive, wildcards.
    ["field=value matches the whole value: msg=error is not `upstream error`", "msg=error", ["e1"]],
    ["field=value is case-insensitive", "user=ALICE", ["e9", "e5", "e1"]],
    ["`*` is a wildcard anywhere in the value", "user=*o*", ["e12", "e7", "e6", "e2"]],
    ["a quoted value still honours `*`", 'msg="up*"', ["e2"]],
    [
      "field=* means the field exists",
      "user=*",
      ["e12", "e11", "e9", "e8", "e7", "e6", "e5", "e2", "e1"]
    ],
    [
      "f!=v: only events that have f, with another value",
      "user!=alice",
      ["e12", "e11", "e8", "e7", "e6", "e2"]
    ],
    [
      "NOT f=v: every other event, those without f included",
      "NOT user=alice",
      ["e12", "e11", "e10", "e8", "e7", "e6", "e4", "e3", "e2"]
    ],
    [
      '`>=` compares numbers numerically (500, 503, 504; "5xx"-like text never)',
      "status>=500",
      ["e10", "e4", "e1"]
    ],
    [
      'numeric strings compare as numbers: "99" is not > 1000, "abc" never is',
      "bytes>1000",
      ["e10", "e1"]
    ],
    ["`<` with a number literal ignores non-numeric values", "bytes<100", ["e8", "e5"]],
    [
      "an OR passes on one side when the other reads a missing or non-numeric field",
      "bytes>1000 OR user=bob",
      ["e10", "e7", "e2", "e1"]
    ],
    [
      "NOT of a numeric comparison includes events without the field or a number in it",
      "NOT bytes>1000",
      ["e12", "e11", "e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2"]
    ],
    [
      'IN is an OR of equalities with wildcards; 404 and "404", 200 and "200"',
      "status IN (4*, 200)",
      ["e11", "e9", "e3", "e2"]
    ],
    ["dotted field names reach nested fields", "k8s.pod.name=api-*", ["e7"]],
    // Boolean structure.
    [
      "search evaluates OR before AND: (web-1 OR web-2) AND user=alice",
      "host=web-1 OR host=web-2 user=alice",
      ["e9", "e1"]
    ],
    ["explicit AND is the same as side by side", "host=web-1 AND user=alice", ["e9", "e1"]],
    [
      "NOT applies to the parenthesised group",
      "NOT (host=web-1 OR host=web-2)",
      ["e12", "e8", "e7", "e5", "e4"]
    ],
    ["parentheses group first", "(user=bob OR user=carol) host=web-2", ["e6", "e2"]],
    // Metadata columns.
    ["index= reads the index column, case-insensitive", "index=AUDIT", ["e8", "e4"]],
    ["sourcetype= reads the sourcetype column", "sourcetype=json", ["e4"]],
    ["host= with a quote in the value", 'host="we\'b"', ["e12"]],
    ["source= reads the source column", "source=http:* id=e1", ["e1"]],
    [
      "AND/OR/NOT are uppercase: a lowercase `or` is a term (no event has it)",
      "user=bob or user=carol",
      []
    ],
    ["NOT applies only to the term after it", "NOT user=alice host=web-1", ["e11", "e3"]],
    ['= compares as text: 1 does not match "1.0"', "status=1", []],
    ['= compares as text: 1.0 matches "1.0"', "status=1.0", ["e6"]],
    ["a leading `search` is the command's name, not a term", "search error upstream", ["e3"]],
    [
      "an empty search is every event",
      "",
      ["e12", "e11", "e10", "e9", "e8", "e7", "e6", "e5", "e4", "e3", "e2", "e1"]
    ]
  ]

layer(SplCompilerLive)("SPL base search", (it) => {
  for (const [rule, spl, expected] of cases)
    it.effect(`${rule}: ${spl}`, () =>
      Effect.map(ids(chdb, spl), (found) => expect(found).toEqual(expected))
    )

  it.effect("time bounds: earliest inclusive, latest exclusive", () =>
    Effect.gen(function* () {
      expect(yield* ids(chdb, "", { earliest: at(3), latest: at(6) })).toEqual(["e5", "e4", "e3"])
      expect(yield* ids(chdb, "", { earliest: at(11) })).toEqual(["e12", "e11"])
      expect(yield* ids(chdb, "", { latest: at(2) })).toEqual(["e1"])
      expect(yield* ids(chdb, "user=*", { earliest: at(3), latest: at(6) })).toEqual(["e5"])
    })
  )
})
