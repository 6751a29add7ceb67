/**
 * `format_query`'s text, as Prometheus prints a parsed query. The expected texts were
 * read off Prometheus 2.42's own `format_query` where 2.42 and 3 agree, and follow
 * Prometheus 3's printer where they differ (numbers in fixed notation, `ignoring ()`
 * kept before `group_left`, durations written as numbers); the second half asks a real
 * Prometheus 2.42 for every compliance query and a set of long and unusual ones.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { parser } from "@prometheus-io/lezer-promql"
import { parsePromQL } from "../../src/prometheus/promql/parser/Parse.js"
import { exprText, prettyExpr } from "../../src/prometheus/promql/parser/Print.js"
import { freePort, hasPrometheus, startPrometheus } from "../support/prometheus.js"

const format = (query: string) => prettyExpr(parsePromQL(parser, query))

describe("format_query's one-line text", () => {
  it("keeps the parentheses the query wrote and adds none", () => {
    expect(format("(a + b) * c")).toBe("(a + b) * c")
    expect(format("a + b * c")).toBe("a + b * c")
    expect(format("((foo))")).toBe("((foo))")
    expect(format("-(1)")).toBe("-(1)")
    expect(format("rate((foo[5m]))")).toBe("rate((foo[5m]))")
    expect(format("(foo)[5m:]")).toBe("(foo)[5m:]")
  })

  it("sorts matchers, joins them with commas, and keeps a name written as a matcher", () => {
    expect(format('foo{b!~"x",  b!="y", a=""}')).toBe('foo{a="",b!="y",b!~"x"}')
    expect(format('{__name__="foo"}')).toBe('{__name__="foo"}')
    expect(format('{__name__=~"foo.*", job="x"}')).toBe('{__name__=~"foo.*",job="x"}')
  })

  it("prints numbers in fixed notation, with a sign folded in, as Prometheus 3 does", () => {
    expect(format("1e6")).toBe("1000000")
    expect(format("1e-7")).toBe("0.0000001")
    expect(format("1.5e21")).toBe("1500000000000000000000")
    expect(format(".5")).toBe("0.5")
    expect(format("0x10")).toBe("16")
    expect(format("+1")).toBe("1")
    expect(format("-0x10")).toBe("-16")
    expect(format("NaN")).toBe("NaN")
    expect(format("-Inf")).toBe("-Inf")
  })

  it("prints durations in Prometheus's units, years and weeks only when exact", () => {
    expect(format("foo offset 90s")).toBe("foo offset 1m30s")
    expect(format("foo[90d]")).toBe("foo[90d]")
    expect(format("foo[2w]")).toBe("foo[2w]")
    expect(format("foo[1y]")).toBe("foo[1y]")
    expect(format("foo @ 100 offset -1h30m")).toBe("foo @ 100.000 offset -1h30m")
    expect(format("max_over_time(rate(foo[1m])[1h:] offset 1d)")).toBe(
      "max_over_time(rate(foo[1m])[1h:] offset 1d)"
    )
    // A duration written as a number prints back as one (Prometheus 3).
    expect(format("time() - 1h30m")).toBe("time() - 1h30m")
    expect(format("-5m")).toBe("-5m")
  })

  it("quotes strings as Go does", () => {
    expect(format('"a\\u00e9\\x01\\n\\u00a0\\u00ad"')).toBe('"aé\\x01\\n\\u00a0\\u00ad"')
    expect(format("'it\"s'")).toBe('"it\\"s"')
    expect(format("`a\\b`")).toBe('"a\\\\b"')
  })

  it("writes grouping, matching and bool as Prometheus does", () => {
    expect(format("sum(rate(foo[5m])) by (job)")).toBe("sum by (job) (rate(foo[5m]))")
    expect(format("sum without() (x)")).toBe("sum without () (x)")
    expect(format("sum by () (x)")).toBe("sum(x)")
    expect(format("x unless on() y")).toBe("x unless on () y")
    expect(format("1 > bool 2")).toBe("1 > bool 2")
    expect(format("a + on(a, b) group_right(c) b")).toBe("a + on (a, b) group_right (c) b")
    // Prometheus 2.42 drops `ignoring ()` here and with it `group_left`; 3 keeps both.
    expect(format("a * ignoring() group_left b")).toBe("a * ignoring () group_left () b")
  })

  it("binds a sign to the number after it whatever lies between, under ^", () => {
    const spaced = parsePromQL(parser, "- 1 ^ 2")
    expect(spaced).toEqual(parsePromQL(parser, "-1 ^ 2"))
    expect(spaced).toMatchObject({ kind: "unary", op: "-", expr: { kind: "binary", op: "^" } })
    expect(exprText(parsePromQL(parser, "- # a comment\n 1 ^ 2"))).toBe("-1 ^ 2")
  })
})

describe("format_query past 100 bytes a line", () => {
  it("splits binary operands, calls and aggregations, indenting two spaces a level", () => {
    // Prometheus 2.42's answer for this query.
    expect(
      format(
        'histogram_quantile(0.9, sum by (le, job, instance, method, path) (rate(demo_api_request_duration_seconds_bucket{job="demo"}[5m]))) > 0.05 and on (job) sum(up) by (job) > 2'
      )
    ).toBe(
      [
        "    histogram_quantile(",
        "      0.9,",
        "      sum by (le, job, instance, method, path) (",
        '        rate(demo_api_request_duration_seconds_bucket{job="demo"}[5m])',
        "      )",
        "    )",
        "  >",
        "    0.05",
        "and on (job)",
        "  sum by (job) (up) > 2"
      ].join("\n")
    )
  })

  it("counts bytes, not characters", () => {
    const label = "é".repeat(60)
    // 74 characters, 134 bytes: split, as Prometheus 2.42 splits it.
    expect(format(`sum(foo{a="${label}"})`)).toBe(`sum(\n  foo{a="${label}"}\n)`)
  })
})

// ----------------------------------------------------------------------------------------

const QUERIES_FILE = path.join(import.meta.dirname, "fixtures/promql-compliance-queries.json")
const Queries = Schema.Array(Schema.Struct({ query: Schema.String }))

/** Long and unusual queries beside the compliance suite's, which are all short. */
const MORE = [
  'topk(5, sum by (instance, job, method, path, status) (rate(demo_api_request_duration_seconds_count{job="demo", status!~"5.."}[5m])))',
  'count_values("value_label_that_is_long", sum by (instance, job, method, path) (demo_api_request_duration_seconds_count{job="demo"}))',
  'quantile(0.99, rate(demo_api_request_duration_seconds_sum{job="demo", instance=~"localhost:.*"}[10m]) / rate(demo_api_request_duration_seconds_count[10m]))',
  '(sum by (job) (rate(demo_api_request_duration_seconds_count{status=~"5..", job="demo"}[5m])) / sum by (job) (rate(demo_api_request_duration_seconds_count[5m])))',
  '-(sum by (job) (rate(demo_api_request_duration_seconds_count{status=~"5..", job="demo"}[5m])) / sum by (job) (rate(demo_api_request_duration_seconds_count[5m])))',
  '-sum by (job, instance, method, path, status) (rate(demo_api_request_duration_seconds_count{job="demo"}[5m]))',
  'max_over_time((sum by (job, instance) (rate(demo_api_request_duration_seconds_count{job="demo", method="GET"}[1m])))[30m:1m] offset 5m)',
  'max_over_time(sum by (job, instance, method) (rate(demo_api_request_duration_seconds_count{job="demo", method="GET"}[1m]))[30m:1m])',
  'label_replace(rate(demo_api_request_duration_seconds_count{job="demo", instance="localhost:10000"}[5m]), "new_label_name", "$1", "instance", "(.*):.*")',
  'demo_api_request_duration_seconds_count{job="demo", instance="localhost:10000", method="POST", path="/api/foo/bar/baz", status="200"}',
  'rate(demo_api_request_duration_seconds_count{job="demo", instance="localhost:10000", method="POST", path="/api/foo/bar/baz", status="200"}[5m])',
  'sum(rate(demo_api_request_duration_seconds_count{job="demo", instance="localhost:10000", method="POST", path="/api/foo/bar/baz", status="200"}[5m]))',
  "vector(1) + vector(2) + vector(3) + vector(4) + vector(5) + vector(6) + vector(7) + vector(8) + vector(9) + vector(10)",
  "1 + 2 * 3 - 4 / 5 % 6 ^ 7 + 1 + 2 * 3 - 4 / 5 % 6 ^ 7 + 1 + 2 * 3 - 4 / 5 % 6 ^ 7 + 1 + 2 * 3 - 4 / 5 % 6 ^ 7",
  "demo_memory_usage_bytes / on(instance, job) group_left(version, something_long_label_name) demo_build_info_with_a_long_name_here",
  "time() - demo_batch_last_success_timestamp_seconds > bool 3600 * 24 * 7 and demo_batch_last_success_timestamp_seconds > 0",
  '"ünïcödé ✓ 😀 \\t"',
  'foo{a!~"x|y", b=~".+", c!="", d="e"} @ end() offset 5m',
  "rate(foo[5m:30s] @ 1000)",
  "- 1 ^ 2",
  'absent(nonexistent{job="x"})',
  "scalar(sum(foo))"
]

/**
 * Where Prometheus 2.42 prints a number with an exponent (`%v`), Prometheus 3 prints it in
 * fixed notation (`strconv.FormatFloat(v, 'f', -1, 64)`): 2.42's answer, and 3's.
 */
const NUMBERS_IN_PROMETHEUS_3: Record<string, readonly [string, string]> = {
  "clamp(demo_memory_usage_bytes, 0, 1000000000000)": [
    "clamp(demo_memory_usage_bytes, 0, 1e+12)",
    "clamp(demo_memory_usage_bytes, 0, 1000000000000)"
  ],
  "clamp(demo_memory_usage_bytes, 1000000000000, 0)": [
    "clamp(demo_memory_usage_bytes, 1e+12, 0)",
    "clamp(demo_memory_usage_bytes, 1000000000000, 0)"
  ],
  "clamp(demo_memory_usage_bytes, 1000000000000, 1000000000000)": [
    "clamp(demo_memory_usage_bytes, 1e+12, 1e+12)",
    "clamp(demo_memory_usage_bytes, 1000000000000, 1000000000000)"
  ]
}

const Reply = Schema.Union(
  Schema.Struct({ status: Schema.Literal("success"), data: Schema.String }),
  Schema.Struct({ status: Schema.Literal("error"), error: Schema.String })
)

if (!hasPrometheus) console.warn("format_query: no `prometheus` on PATH; comparison skipped")

describe("format_query beside Prometheus 2.42", () => {
  it.scoped.skipIf(!hasPrometheus)(
    "every compliance query and the long ones print as Prometheus prints them",
    () =>
      Effect.gen(function* () {
        const port = yield* freePort()
        const prometheus = yield* startPrometheus(port, "global: {}\n")
        const queries = Schema.decodeUnknownSync(Queries)(
          JSON.parse(fs.readFileSync(QUERIES_FILE, "utf8"))
        ).map((q) => q.query)
        const differing: Array<string> = []
        let compared = 0
        for (const query of [...queries, ...MORE]) {
          const reply = Schema.decodeUnknownSync(Reply)(
            yield* Effect.promise(() =>
              fetch(`${prometheus.url}/api/v1/format_query`, {
                method: "POST",
                body: new URLSearchParams({ query })
              }).then((r) => r.json())
            )
          )
          // The suite's queries that Prometheus refuses are refused here too (compliance).
          if (reply.status === "error") continue
          compared += 1
          const exception = NUMBERS_IN_PROMETHEUS_3[query]
          if (exception) {
            expect(reply.data).toBe(exception[0])
            expect(format(query)).toBe(exception[1])
          } else if (format(query) !== reply.data)
            differing.push(`${query}\n  prometheus: ${reply.data}\n  sluice:     ${format(query)}`)
        }
        expect(differing).toEqual([])
        expect(compared).toBeGreaterThan(500)
      }),
    60_000
  )
})
