/**
 * The rest of the SPL subset's function list (relative_time, strftime, strptime, replace,
 * split, mvcount, tostring's formats, tonumber's base, case without a true branch) and
 * field wildcards in `fields`, `table` and `rename`, and backslashes in quoted strings
 * (escaping only `"` and `\`), over the events of events.ts. e1 is
 * at 2026-01-01T00:01:00Z (1767225660 s), a Thursday. Expectations are worked by hand.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { ids, openEvents, search, STORED_FIELDS } from "./events.js"

const chdb = await openEvents()

/** The one row `id=<id> | eval v=<expression> | table v` gives, as its value. */
const valueOf = (id: string, expression: string) =>
  Effect.map(search(chdb, `id=${id} | eval v=${expression} | table v`), (rows) => {
    expect(rows.length).toBe(1)
    return rows[0]!["v"]
  })

const cases: ReadonlyArray<
  readonly [rule: string, id: string, expression: string, expected: unknown]
> = [
  [
    'relative_time "-1d@d": a day back, to midnight',
    "e1",
    'relative_time(_time, "-1d@d")',
    1767139200
  ],
  ['relative_time "-30s": no snap', "e1", 'relative_time(_time, "-30s")', 1767225630],
  [
    'relative_time "@w1": the Monday before (2025-12-29)',
    "e1",
    'relative_time(_time, "@w1")',
    1766966400
  ],
  [
    'relative_time "@w0": the Sunday before (2025-12-28)',
    "e1",
    'relative_time(_time, "@w0")',
    1766880000
  ],
  ['relative_time "+1mon@mon": 2026-02-01', "e1", 'relative_time(_time, "+1mon@mon")', 1769904000],
  ['relative_time "-1q@q": 2025-10-01', "e1", 'relative_time(_time, "-1q@q")', 1759276800],
  ["relative_time of a missing time is null", "e1", 'relative_time(nosuch, "-1d")', null],
  [
    "strftime in UTC, %M the minute",
    "e1",
    'strftime(_time, "%Y-%m-%d %H:%M:%S")',
    "2026-01-01 00:01:00"
  ],
  [
    "strftime %d/%b/%Y %I:%M %p",
    "e1",
    'strftime(_time, "%d/%b/%Y %I:%M %p")',
    "01/Jan/2026 12:01 AM"
  ],
  ["strftime %A %B %j", "e1", 'strftime(_time, "%A %B %j")', "Thursday January 001"],
  ["strftime %s.%3N %Z %%", "e1", 'strftime(_time, "%s.%3N %Z %%")', "1767225660.000 UTC %"],
  [
    "strftime of a numeric string (bytes 1200 s after the epoch)",
    "e1",
    'strftime(bytes, "%Y %H:%M")',
    "1970 00:20"
  ],
  [
    "strptime reads a format in UTC",
    "e1",
    'strptime("31/03/2026 15:45", "%d/%m/%Y %H:%M")',
    1774971900
  ],
  ["strptime of text that does not fit is null", "e1", 'strptime(user, "%Y")', null],
  ["replace replaces every match", "e2", 'replace(msg, "r+", "R")', "upstReam eRoR"],
  [
    "replace with backreferences, backslashes doubled",
    "e1",
    'replace(host, "(\\\\w+)-(\\\\d)", "\\\\2-\\\\1")',
    "1-web"
  ],
  [
    "a backslash before a letter reaches the regular expression as written",
    "e3",
    'replace(_raw, "\\d+", "N")',
    "GET /api/items/N upstream_error"
  ],
  [
    "backreferences written as in Splunk",
    "e1",
    'replace(host, "(\\w+)-(\\d)", "\\2-\\1")',
    "1-web"
  ],
  [
    "\\. is a dot, not any character",
    "e1",
    'if(match("a.b", "^a\\.b$") AND NOT match("axb", "^a\\.b$"), "yes", "no")',
    "yes"
  ],
  ['a backslash escapes " and itself', "e1", '"a\\\\b\\"c"', 'a\\b"c'],
  ["split makes a multivalue", "e1", 'split(host, "-")', ["web", "1"]],
  ["mvcount of a split", "e1", 'mvcount(split(host, "-"))', 2],
  ["mvcount of a single value is 1", "e1", "mvcount(user)", 1],
  ["mvcount of null is null", "e10", "mvcount(user)", null],
  ["tostring commas", "e10", 'tostring(bytes, "commas")', "15,000"],
  [
    "tostring commas rounds to two decimals",
    "e1",
    'tostring(1234567.891, "commas")',
    "1,234,567.89"
  ],
  ["tostring commas of a negative number", "e1", 'tostring(-1000, "commas")', "-1,000"],
  ["tostring hex", "e1", 'tostring(status, "hex")', "0x1F4"],
  ["tostring duration (15000 s)", "e10", 'tostring(bytes, "duration")', "04:10:00"],
  ["tostring duration beyond a day", "e1", 'tostring(90061, "duration")', "1+01:01:01"],
  ["tonumber base 16", "e1", 'tonumber("ff", 16)', 255],
  ["tonumber base 2", "e1", 'tonumber("101", 2)', 5],
  ["tonumber: a digit outside the base is null", "e1", 'tonumber("12z", 16)', null],
  ["tonumber of non-numeric text is null", "e3", "tonumber(bytes)", null],
  ["len counts characters, not bytes", "e1", 'len("été")', 3],
  ["case with no true branch is null", "e1", 'case(user="nobody", "x")', null],
  [
    "match is unanchored unless anchored",
    "e1",
    'if(match(host, "eb") AND NOT match(host, "^eb"), "yes", "no")',
    "yes"
  ]
]

layer(SplCompilerLive)("SPL functions and field wildcards", (it) => {
  for (const [rule, id, expression, expected] of cases)
    it.effect(`${rule}: ${expression}`, () =>
      Effect.map(valueOf(id, expression), (value) => expect(value).toEqual(expected))
    )

  const refused: ReadonlyArray<readonly [spl: string, says: RegExp]> = [
    ['| eval v=strftime(_time, "%Q%q")', /strftime\(\) does not know %q/],
    ['| eval v=strptime(x, "%s")', /strptime\(\) cannot read %s/],
    ["| eval v=strftime(_time, fmt)", /format as a "quoted" literal/],
    ['| eval v=relative_time(_time, "yesterday")', /'yesterday' is not a time/],
    ["| eval v=split(host, sep)", /separator as a "quoted" literal/],
    ['| eval v=tostring(1, "roman")', /commas", "hex" or "duration"/],
    ['| eval v=tonumber("1", 37)', /bases 2 to 36/],
    ["| eval v=now(1)", /now\(\) takes 0 arguments/]
  ]
  for (const [spl, says] of refused)
    it.effect(`refused: ${spl}`, () =>
      Effect.map(Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile(spl, {}))), (error) => {
        expect([error.command, error.position]).toEqual(["eval", 9])
        expect(error.message).toMatch(says)
      })
    )

  it.effect("where, search phrases and IN lists keep a backslash before other characters", () =>
    Effect.gen(function* () {
      expect(yield* ids(chdb, '| where match(_raw, "^GET /api/items/\\d+ ")')).toEqual(["e3"])
      // "\\\\" in SPL is "\\" to the regular expression: one literal backslash.
      expect(yield* ids(chdb, '| where match(_raw, "\\s\\\\\\\\back$")')).toEqual(["e12"])
      // e12's _raw: O'Brien said "hi" \back
      expect(yield* ids(chdb, '"said \\"hi\\" \\back"')).toEqual(["e12"])
      expect(yield* ids(chdb, '_raw IN ("*\\"hi\\" \\back", "none")')).toEqual(["e12"])
    })
  )

  it.effect("fields host*: the named fields matching, with _time and _raw", () =>
    Effect.map(search(chdb, 'id=e1 | eval host_a="x", other="y" | fields host*, id'), (rows) =>
      expect(rows).toEqual([
        {
          _time: "2026-01-01 00:01:00.000",
          _raw: "error: disk full",
          host: "web-1",
          host_a: "x",
          id: "e1"
        }
      ])
    )
  )

  it.effect("table s*, id: source and sourcetype, in the stage's order, then id", () =>
    Effect.map(search(chdb, "id=e4 | table s*, id"), (rows) => {
      expect(rows).toEqual([{ source: "http:test", sourcetype: "json", id: "e4" }])
      expect(Object.keys(rows[0]!)).toEqual(["source", "sourcetype", "id"])
    })
  )

  it.effect("fields * keeps every field, the stored ones included", () =>
    Effect.map(search(chdb, "id=e1 | fields * | table id, user"), (rows) =>
      expect(rows).toEqual([{ id: "e1", user: "alice" }])
    )
  )

  it.effect("rename with wildcards carries what * matched", () =>
    Effect.map(
      search(
        chdb,
        '| stats count by host, index | rename h* AS machine_*, index AS i | where machine_ost="db-1"'
      ),
      (rows) =>
        expect(rows).toEqual([
          { machine_ost: "db-1", i: "audit", count: 1 },
          { machine_ost: "db-1", i: "main", count: 1 }
        ])
    )
  )

  it.effect("table m*, s*: the events' stored fields match too, after the stage's own", () =>
    Effect.map(search(chdb, "id=e9 | table m*, s*", {}, STORED_FIELDS), (rows) => {
      expect(rows).toEqual([
        { method: "get", msg: null, source: "http:test", sourcetype: "httpevent", status: "404" }
      ])
      expect(Object.keys(rows[0]!)).toEqual(["method", "msg", "source", "sourcetype", "status"])
    })
  )

  it.effect("fields k8s*: a nested stored field by its dotted path", () =>
    Effect.map(search(chdb, "id=e7 | fields k8s*", {}, STORED_FIELDS), (rows) =>
      expect(rows.map((row) => [row["k8s.pod.name"], Object.keys(row).sort()])).toEqual([
        ["api-7", ["_raw", "_time", "k8s.pod.name"]]
      ])
    )
  )

  it.effect("rename m* AS http_m*: every stored field matching, gone under its old name", () =>
    Effect.map(
      search(
        chdb,
        "id=e10 | rename m* AS http_m* | table id, http_method, http_msg, method, msg",
        {},
        STORED_FIELDS
      ),
      (rows) =>
        expect(rows).toEqual([
          { id: "e10", http_method: "POST", http_msg: "timeout", method: null, msg: null }
        ])
    )
  )

  it.effect("a stored field renamed away is not matched under its old name", () =>
    Effect.map(
      search(chdb, "id=e10 | rename msg AS text | table m*, text", {}, STORED_FIELDS),
      (rows) => expect(rows).toEqual([{ method: "POST", text: "timeout" }])
    )
  )

  it.effect("stats count by met*: grouped by the stored field it matches", () =>
    Effect.map(search(chdb, "| stats count by met*", {}, STORED_FIELDS), (rows) =>
      // method: GET in e1, e3; POST in e2, e10; get in e9. Ascending by code point.
      expect(rows).toEqual([
        { method: "GET", count: 2 },
        { method: "POST", count: 2 },
        { method: "get", count: 1 }
      ])
    )
  )

  it.effect("rename needs as many * on both sides", () =>
    Effect.map(
      Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile("| rename h* AS x", {}))),
      (error) => {
        expect([error.command, error.position]).toEqual(["rename", 2])
        expect(error.message).toMatch(/as many \* on both sides/)
      }
    )
  )
})
