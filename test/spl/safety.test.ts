/**
 * SPL text never changes the structure of the SQL (it reaches it only as quoted
 * literals), and no text makes the compiler die: a seeded fuzz of SPL-like strings
 * compiles or is refused, and what compiles runs on chDB within the size budget.
 */
import { expect, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import { SplRefused } from "../../domain/Errors.js"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { SQL_BUDGET } from "../../src/spl/compiler/Budget.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { ids, openEvents, rowsOf, search } from "./events.js"

const chdb = await openEvents()

/** The SQL with every quoted string and identifier replaced by `?`: its structure. */
const skeleton = (sql: string) => sql.replace(/'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, "?")

const compiled = (spl: string) => Effect.flatMap(SplCompiler, (c) => c.compile(spl, {}))

/** Pairs of a benign search and a hostile one of the same shape. */
const hostile: ReadonlyArray<readonly [benign: string, attack: string]> = [
  ['"plain words"', `"'; DROP TABLE spl_events; --"`],
  ['msg="plain"', `msg="x' OR '1'='1"`],
  ['msg="plain"', 'msg="x\\\\\' OR 1=1 --"'],
  ["'plain'=x", "'a`b) OR 1=1 --'=x"],
  ["plain", "x\\';SELECT--1/*"],
  ['| where msg="plain"', '| where msg="\') UNION ALL SELECT * FROM system.tables --"'],
  ["| where 'plain'=\"x\"", "| where 'odd`name\\' OR 1'=\"x\""],
  ["| eval 'plain'=\"v\" | table 'plain'", "| eval 'a`b'=\"c\\\"); DROP\" | table 'a`b'"],
  ["| stats count as 'plain' by host", "| stats count as 'n`) FROM x; --' by host"],
  ["| rename host AS 'plain'", "| rename host AS 'h\\\\`x'"],
  ['| where like(msg, "plain")', "| where like(msg, \"%' OR ''='\")"],
  ["SELECT", "UNION"],
  [
    '| timechart span=5m nullstr="none" count by host',
    `| timechart span=5m nullstr="x\\\\'); DROP TABLE spl_events; --" count by host`
  ],
  ['| eval t=strftime(_time, "%Y")', `| eval t=strftime(_time, "%Y'); --{x}")`],
  ['| eval s=split(host, "-")', '| eval s=split(host, "\\\\\u0000\'{")'],
  [
    '| eval r="plain" . relative_time(_time, "-1d@d")',
    '| eval r="/* x */ -- ;" . relative_time(_time, "-1d@d")'
  ],
  ["| rename host* AS h*", "| rename host* AS 'h`;{*'"],
  ["earliest=-1h plain", 'earliest=-1h "\'; SELECT 1 --"']
]

layer(SplCompilerLive)("SPL safety", (it) => {
  for (const [benign, attack] of hostile)
    it.effect(`injection keeps the query's structure: ${attack}`, () =>
      Effect.gen(function* () {
        const [safe, tried] = [yield* compiled(benign), yield* compiled(attack)]
        expect(skeleton(tried.sql)).toBe(skeleton(safe.sql))
        const rows = yield* Effect.promise(() => rowsOf(chdb, tried.sql))
        expect(rows.length).toBeLessThanOrEqual(12)
        const [{ n }] = (yield* Effect.promise(() =>
          rowsOf(chdb, "SELECT count() AS n FROM spl_events")
        )) as [{ n: number }]
        expect(n).toBe(12)
      })
    )

  it.effect("hostile text matches as the literal it is", () =>
    Effect.gen(function* () {
      expect(yield* ids(chdb, `msg="it's"`)).toEqual(["e12"])
      expect(yield* ids(chdb, `"\\\\back"`)).toEqual(["e12"])
      expect(yield* ids(chdb, `| where msg="it's"`)).toEqual(["e12"])
      expect(yield* ids(chdb, `"'; DROP TABLE spl_events; --"`)).toEqual([])
      const odd = yield* search(chdb, `id=e1 | eval 'a\`b'="c\\"); DROP" | table 'a\`b'`)
      expect(odd).toEqual([{ "a`b": 'c"); DROP' }])
    })
  )

  it.effect("nested round() and division run as SPL computes them", () =>
    Effect.map(
      search(
        chdb,
        "id=e1 | eval x=round(round(round(bytes/7, 2), 1)), y=1/(2/(4/8)), z=5/0 | table x, y, z"
      ),
      // 1200/7 = 171.428… → 171.43 → 171.4 → 171; 4/8 = 0.5, 2/0.5 = 4, 1/4 = 0.25; /0 is null.
      (rows) => expect(rows).toEqual([{ x: 171, y: 0.25, z: null }])
    )
  )

  it.effect("division and modulo: by a literal, by zero (null), by a field that is zero", () =>
    Effect.map(
      search(
        chdb,
        "id=e1 | eval zero=bytes-1200, a=bytes/1024, b=bytes%7, c=bytes/0, d=bytes%0, e=bytes/zero, f=bytes%zero | table a, b, c, d, e, f"
      ),
      // 1200/1024 = 1.171875; 1200 = 171·7 + 3; every divisor that is zero gives null.
      (rows) => expect(rows).toEqual([{ a: 1.171875, b: 3, c: null, d: null, e: null, f: null }])
    )
  )

  it.effect("control characters and non-ASCII text reach SQL as literals", () =>
    Effect.gen(function* () {
      for (const spl of [
        '"a\u0000b"',
        'x="\u0001*"',
        '| where msg="\u0007"',
        "'\u0000'=1",
        "\u00e9t\u00e9 \u65e5\u672c"
      ])
        expect(yield* ids(chdb, spl), spl).toEqual([])
    })
  )

  it.effect("a seeded fuzz of SPL text compiles or is refused, never dies", () =>
    Effect.gen(function* () {
      const compiler = yield* SplCompiler
      const random = mulberry32(20261124)
      const pick = <A>(items: ReadonlyArray<A>) => items[Math.floor(random() * items.length)]!
      let compiledCount = 0
      let refusedCount = 0
      for (let i = 0; i < 3000; i++) {
        const parts = Array.from({ length: 1 + Math.floor(random() * 14) }, () =>
          random() < 0.1 ? String.fromCharCode(Math.floor(random() * 0x3000)) : pick(TOKENS)
        )
        const spl = parts.join(random() < 0.7 ? " " : "")
        const exit = yield* Effect.exit(compiler.compile(spl, { earliest: 0, latest: 1e13 }))
        if (Exit.isFailure(exit)) {
          expect(Cause.isDie(exit.cause), spl).toBe(false)
          expect(Cause.failureOption(exit.cause).pipe(Option.getOrThrow), spl).toBeInstanceOf(
            SplRefused
          )
          refusedCount++
          continue
        }
        compiledCount++
        expect(exit.value.sql.length).toBeLessThanOrEqual(SQL_BUDGET)
        const ran = yield* Effect.exit(Effect.tryPromise(() => rowsOf(chdb, exit.value.sql)))
        if (Exit.isFailure(ran)) expect.fail(`${spl}\n${Cause.pretty(ran.cause)}`)
      }
      // Both sides are exercised: many searches compile and run, many are refused.
      expect(compiledCount).toBeGreaterThan(300)
      expect(refusedCount).toBeGreaterThan(300)
    })
  )
})

const TOKENS = [
  "error",
  "err*",
  "*",
  '"a b"',
  '"x',
  "'",
  '"',
  "`",
  "\\",
  ";",
  "--",
  "/*",
  "x=1",
  "x=*",
  "status>=500",
  "bytes<1e3",
  "user!=alice",
  "NOT",
  "OR",
  "AND",
  "(",
  ")",
  "|",
  "| where",
  "| eval",
  "| stats",
  "| sort",
  "| head",
  "| dedup",
  "| fields",
  "| table",
  "| rename",
  "| search",
  "| timechart",
  "where",
  "eval",
  "count",
  "avg(bytes)",
  "values(user)",
  "by",
  "host",
  "user",
  "-",
  "+",
  "5",
  "0",
  "as",
  ",",
  "=",
  "==",
  "!=",
  "<",
  ">",
  "IN",
  "(4*, 5*)",
  "if(",
  "len(",
  "coalesce(",
  "round(",
  "isnull(",
  "like(",
  ".",
  '"%"',
  "'a b'",
  "k8s.pod.name",
  "DROP TABLE spl_events",
  "SELECT",
  "limit=3",
  "x=y",
  "a+b",
  "a*2",
  "a/0",
  "_time",
  "_raw",
  "index=main",
  "99999999999999999999",
  "1e999",
  "round(",
  "| head 99999999999999999999",
  '"\u0000"',
  "'a`b'",
  "| timechart",
  "| timechart count by host",
  "| timechart span=1h avg(bytes)",
  "span=5m",
  "span=1s",
  "bins=3",
  "limit=0",
  "useother=f",
  "usenull=false",
  'nullstr="n"',
  "cont=false",
  "earliest=-1h",
  "latest=@d",
  "earliest=yesterday",
  "keepempty=true",
  "consecutive=true",
  "sortby",
  "host*",
  "*",
  "list(user)",
  'relative_time(_time, "-1d@w1")',
  'strftime(_time, "%Y-%m-%d %H:%M:%S.%3N")',
  'strptime(user, "%d/%m/%Y")',
  'split(host, "-")',
  "mvcount(",
  'tostring(bytes, "commas")',
  'tostring(bytes, "duration")',
  "tonumber(bytes, 16)",
  "now()",
  '"{"',
  "{",
  "}"
]

/** A small seeded generator, so the fuzz is the same strings every run. */
function mulberry32(seed: number) {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
