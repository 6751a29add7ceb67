/**
 * What the compiler refuses: commands and functions outside
 * the subset, syntax errors, and searches beyond the size budget, each as `SplRefused`
 * naming the command and its 0-based position. Pure: nothing runs.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { errorCode, errorStatus, SplRefused } from "../../domain/Errors.js"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { COMMANDS, TIMECHART_OPTIONS } from "../../src/spl/compiler/Commands.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"

const refusal = (spl: string) =>
  Effect.flatMap(SplCompiler, (compiler) => Effect.flip(compiler.compile(spl, {})))

const cases: ReadonlyArray<
  readonly [spl: string, command: string, position: number, says: RegExp]
> = [
  ["error | chart count by host", "chart", 8, /chart is not in the subset/],
  ["| transaction host maxspan=5m", "transaction", 2, /transaction/],
  ['x | rex "(?<a>.*)" | stats count', "rex", 4, /rex/],
  ["x | fields - a", "fields", 11, /fields -/],
  ["| eval b=(bytes>1)", "eval", 2, /boolean/],
  ["| eval x=nosuch(1)", "eval", 9, /nosuch\(\) is not in the subset/],
  ['| eval x=tonumber("ff", 37)', "eval", 9, /bases 2 to 36/],
  ["| eval x=round(y, z)", "eval", 9, /whole number of digits/],
  ["| stats median(x)", "stats", 8, /median\(\) is not in the subset/],
  ["| stats count, count", "stats", 2, /twice/],
  ["| where bytes", "where", 2, /true\/false test/],
  ["| sort 0", "sort", 2, /at least one field/],
  ["x | head 99999999999999999999", "head", 4, /smaller count/],
  ["| dedup 1e3 host", "dedup", 9, /syntax error/],
  ["__raw_data=1", "search", 0, /not a field name/],
  ["x TERM(10.0.0.1)", "search", 2, /TERM\(\) is not in the subset/],
  ["x OR earliest=-24h", "search", 0, /outside OR, NOT and IN/],
  ["x | search earliest=-24h", "search", 4, /write it in the base search/],
  ["| eval __c0=1", "eval", 2, /not a field name/]
]

layer(SplCompilerLive)("SPL refusals", (it) => {
  for (const [spl, command, position, says] of cases)
    it.effect(`${spl} → ${command} at ${position}`, () =>
      Effect.map(refusal(spl), (error) => {
        expect(error).toBeInstanceOf(SplRefused)
        expect([error.command, error.position]).toEqual([command, position])
        expect(error.message).toMatch(says)
        expect(error.message).toContain(`${command} (position ${position})`)
      })
    )

  it.effect("a syntax error names the command it is in and where", () =>
    Effect.gen(function* () {
      const inWhere = yield* refusal('x | where (a = "b"')
      expect([inWhere.command, inWhere.position]).toEqual(["where", 18])
      const inBase = yield* refusal("(a OR b | head")
      expect(inBase.command).toBe("search")
      const inQuotes = yield* refusal('x | eval y="a|b" +')
      expect(inQuotes.command).toBe("eval")
    })
  )

  it.effect("a syntax error says what could come next and what came, in words", () =>
    Effect.gen(function* () {
      // Was the parser's list: Expected "'", "(", "NOT", "\"", [ \t\r\n], [=<>!], [A-Za-z_@] …
      const reasons = yield* Effect.forEach(
        ["search | stats count", "| head x", "| stats count(x by y", 'x="open', "| rename a as"],
        (spl) => Effect.map(refusal(spl), (error) => error.message)
      )
      expect(reasons).toEqual([
        'search (position 7): syntax error: expected "NOT", "(", a word, a quoted value or a comparison, found "|"',
        'head (position 7): syntax error: expected "limit=", a number, "|" or the end of the search, found "x"',
        'stats (position 16): syntax error: expected ")", found "b"',
        "search (position 7): syntax error: a quoted value is not closed",
        "rename (position 13): syntax error: more was expected, found the end of the search"
      ])
    })
  )

  it.effect("long operator chains are refused by a limit, never by the stack", () =>
    Effect.gen(function* () {
      for (const spl of [
        `${"NOT ".repeat(4000)}a`,
        `| eval x=${"-".repeat(16000)}1`,
        `| where ${"NOT ".repeat(4000)}isnull(a)`,
        `| eval x=${"1+".repeat(5000)}1`
      ]) {
        const error = yield* refusal(spl)
        expect(error.message, spl.slice(0, 20)).toMatch(/nests/)
      }
    })
  )

  it.effect("nesting that repeats no operand stays small: 60 rounds, 60 divisions", () =>
    Effect.gen(function* () {
      const compiler = yield* SplCompiler
      const rounds = `| eval x=${"round(".repeat(60)}bytes${", 1)".repeat(60)}`
      const divisions = `| eval y=${"1/(".repeat(60)}2${")".repeat(60)}`
      for (const spl of [rounds, divisions])
        expect((yield* compiler.compile(spl, {})).sql.length).toBeLessThan(20_000)
    })
  )

  it.effect("every command of the subset is known to the grammar", () =>
    Effect.forEach(COMMANDS, (command) =>
      Effect.map(
        Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile(`| ${command} |`, {}))),
        (error) => expect(error.message).not.toMatch(/is not in the subset/)
      )
    )
  )

  it.effect("every timechart option the registry lists is one the grammar reads", () =>
    Effect.forEach(Object.keys(TIMECHART_OPTIONS), (option) =>
      Effect.flatMap(SplCompiler, (c) =>
        c.compile(`| timechart ${option}=${option === "span" ? "1h" : "1"} count by host`, {})
      )
    )
  )

  it.effect("a time window that is not a number is refused", () =>
    Effect.map(
      Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile("x", { earliest: Number.NaN }))),
      (error) => expect(error.message).toMatch(/epoch milliseconds/)
    )
  )

  it.effect("a time window beyond the dates there are is refused", () =>
    Effect.map(
      Effect.flip(Effect.flatMap(SplCompiler, (c) => c.compile("x", { latest: 1e300 }))),
      (error) => expect(error.message).toMatch(/epoch milliseconds/)
    )
  )

  it.effect("the wire form is 400 bad_request", () =>
    Effect.sync(() => {
      expect(errorStatus.SplRefused).toBe(400)
      expect(errorCode.SplRefused).toBe("bad_request")
    })
  )

  it.effect(
    "searches beyond the size budget are refused, deep nesting without a stack overflow",
    () =>
      Effect.gen(function* () {
        const many = yield* refusal(Array.from({ length: 2000 }, (_, i) => `t${i}`).join(" "))
        expect(many.message).toMatch(/more than 65536 bytes of SQL/)
        const long = yield* refusal("a".repeat(20_000))
        expect(long.message).toMatch(/longer than 16384/)
        const deep = yield* refusal(`${"(".repeat(500)}a${")".repeat(500)}`)
        expect(deep.message).toMatch(/nests parentheses deeper/)
        const stages = yield* refusal(Array.from({ length: 70 }, () => "head").join(" | "))
        expect(stages.message).toMatch(/more than 64 commands/)
      })
  )
})
