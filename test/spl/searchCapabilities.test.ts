/**
 * `GET /v1/spl/capabilities`: served without a credential, and never promising what the
 * compiler refuses: every command, function, operator and keyword it lists compiles in
 * a search (through the `SplCompiler` tag), and what it leaves out is refused.
 */
import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { SplCapabilities } from "../../domain/api/SplApi.js"
import { SplCompiler } from "../../domain/SplCompiler.js"
import { SplCompilerLive } from "../../src/spl/compiler/SplCompilerLive.js"
import { resolveTime } from "../../src/spl/compiler/TimeModifier.js"
import { bodyOf, call, freshDataDir, TestServer } from "../support/server.js"

/** Whether `spl` compiles. */
const compiles = (spl: string) =>
  Effect.flatMap(SplCompiler, (compiler) =>
    Effect.map(Effect.either(compiler.compile(spl, {})), Either.isRight)
  )

/** Whether one of `candidates` compiles. */
const someCompiles = (candidates: ReadonlyArray<string>) =>
  Effect.map(Effect.forEach(candidates, compiles), (results) => results.some((ok) => ok))

// Arguments a command or function may take; each listed one must accept one of them.
const COMMAND_ARGUMENTS = ["", "x", "x>1", "x=1", "count", "count by x", "x AS y", "span=1h count"]
// Formats, modifiers and separators are quoted literals, as written in SPL.
const FUNCTION_ARGUMENTS = [
  "",
  "x",
  "x, 1",
  "x, 1, 2",
  "x>1, 1, 2",
  "x>1, 1",
  '"a", "b"',
  'x, "a"',
  'x, "a", "b"',
  'x, "-1d@d"',
  'x, "%Y-%m-%d"'
]

/** One hand-written search per operator and keyword of the manifest. */
const OPERATOR_EXAMPLES: Readonly<Record<string, string>> = {
  "=": "x=1",
  "==": "| where x==1",
  "!=": "x!=1",
  "<": "x<1",
  "<=": "x<=1",
  ">": "x>1",
  ">=": "x>=1",
  IN: "x IN (1, 2)",
  "+": "| eval y=x+1",
  "-": "| eval y=x-1",
  "*": "| eval y=x*2",
  "/": "| eval y=x/2",
  "%": "| eval y=x%2",
  ".": '| eval y=x."a"',
  AND: "x=1 AND y=2",
  OR: "x=1 OR y=2",
  NOT: "NOT x=1"
}
const KEYWORD_EXAMPLES: Readonly<Record<string, string>> = {
  AND: "x=1 AND y=2",
  OR: "| where x=1 OR y=2",
  NOT: "| where NOT x=1",
  IN: "x IN (1, 2)",
  BY: "| stats count BY x",
  AS: "| stats count AS n | rename n AS m",
  limit: "| sort x limit=5"
}

layer(Layer.merge(TestServer.layer(freshDataDir("spl-capabilities")), SplCompilerLive), {
  excludeTestServices: true,
  timeout: 120_000
})("GET /v1/spl/capabilities", (it) => {
  const manifest = Effect.flatMap(TestServer, (server) =>
    Effect.map(call(server, "GET", "/v1/spl/capabilities"), (reply) => {
      expect(reply.status, reply.text).toBe(200)
      return bodyOf(SplCapabilities, reply)
    })
  )

  it.effect("answers without a credential, with the subset's commands and limits", () =>
    Effect.gen(function* () {
      const capabilities = yield* manifest
      const names = capabilities.commands.map((c) => c.name)
      for (const command of ["search", "where", "eval", "stats", "sort", "head", "dedup"])
        expect(names).toContain(command)
      expect(capabilities.commands.find((c) => c.name === "search")?.positions).toEqual([
        "first",
        "later"
      ])
      expect(capabilities.commands.find((c) => c.name === "stats")?.positions).toEqual(["later"])
      expect(capabilities.builtin_fields).toEqual([
        "_time",
        "_raw",
        "host",
        "source",
        "sourcetype",
        "index"
      ])
      expect(capabilities.limits).toMatchObject({
        result_rows: 10_000,
        stage_output_rows: 10_000,
        stages_measured: 12,
        field_statistics_top_values: 5
      })
      for (const unit of ["s", "m", "h", "d"])
        expect(capabilities.timechart_span_units).toContain(unit)
    })
  )

  it.effect("every listed command compiles after a pipe, and the base search first", () =>
    Effect.gen(function* () {
      const capabilities = yield* manifest
      for (const command of capabilities.commands) {
        for (const position of command.positions) {
          const candidates = COMMAND_ARGUMENTS.map((args) =>
            position === "first"
              ? `${command.name} ${args}`
              : `index=main | ${command.name} ${args}`
          )
          expect(yield* someCompiles(candidates), `${command.name} (${position})`).toBe(true)
        }
      }
      // The check can fail: a command the manifest leaves out does not compile.
      expect(yield* someCompiles(COMMAND_ARGUMENTS.map((a) => `| transaction ${a}`))).toBe(false)
    })
  )

  it.effect("every listed function compiles in eval or stats", () =>
    Effect.gen(function* () {
      const capabilities = yield* manifest
      for (const fn of capabilities.functions) {
        const candidates = [
          ...FUNCTION_ARGUMENTS.map((args) => `| eval v=${fn}(${args})`),
          ...FUNCTION_ARGUMENTS.map((args) => `| where ${fn}(${args})`),
          `| stats ${fn}(x)`,
          `| stats ${fn}`
        ]
        expect(yield* someCompiles(candidates), fn).toBe(true)
      }
      expect(yield* someCompiles(FUNCTION_ARGUMENTS.map((a) => `| eval v=mvindex(${a})`))).toBe(
        false
      )
    })
  )

  it.effect("every listed operator and keyword compiles; each has its own example", () =>
    Effect.gen(function* () {
      const capabilities = yield* manifest
      expect([...capabilities.operators].sort()).toEqual(Object.keys(OPERATOR_EXAMPLES).sort())
      expect([...capabilities.keywords].sort()).toEqual(Object.keys(KEYWORD_EXAMPLES).sort())
      for (const [operator, spl] of Object.entries(OPERATOR_EXAMPLES))
        expect(yield* compiles(spl), operator).toBe(true)
      for (const [keyword, spl] of Object.entries(KEYWORD_EXAMPLES))
        expect(yield* compiles(spl), keyword).toBe(true)
    })
  )

  it.effect("every listed span unit is a time unit; with timechart, a span it compiles", () =>
    Effect.gen(function* () {
      const capabilities = yield* manifest
      const timechart = capabilities.commands.some((c) => c.name === "timechart")
      for (const unit of capabilities.timechart_span_units) {
        expect(() => resolveTime("earliest", `-1${unit}@${unit}`, 0), unit).not.toThrow()
        if (timechart) expect(yield* compiles(`| timechart span=1${unit} count`), unit).toBe(true)
      }
    })
  )
})
