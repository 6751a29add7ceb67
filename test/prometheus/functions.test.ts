/**
 * The functions Prometheus 3 has beyond the first slice: `limitk`, `limit_ratio`,
 * `sort_by_label[_desc]`, `sort`/`sort_desc` ordering, `mad_over_time`,
 * `double_exponential_smoothing`, `first_over_time` and `ts_of_*_over_time`, `info()`, and
 * the native-histogram functions over float samples;
 * every expected value worked out by hand from Prometheus's definitions.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { installApp } from "../support/client.js"
import { METRICS_BASE, writeSeries } from "../support/metricsApp.js"
import { adminKeyOf, bodyOf, call, freshDataDir, TestServer } from "../support/server.js"
import { PromError, Vector } from "../support/prometheusReplies.js"

const ADMIN = "functions-admin@example.com"
const PASSWORD = "functions admin password"
const T0 = 1_700_000_000_000
const q = encodeURIComponent

const get = (path: string) =>
  Effect.flatMap(TestServer, (server) =>
    call(server, "GET", `${METRICS_BASE}${path}`, { token: adminKeyOf(server) })
  )

/** The answer at `ms`, as [labels, value] pairs in the order given. */
const at = (query: string, ms: number) =>
  Effect.gen(function* () {
    const reply = yield* get(`/query?query=${q(query)}&time=${ms / 1000}`)
    expect(reply.status, reply.text).toBe(200)
    return bodyOf(Vector, reply).data.result.map((s) => [s.metric, s.value[1]] as const)
  })

const failsWith = (query: string, status: number, errorType: string) =>
  Effect.gen(function* () {
    const reply = yield* get(`/query?query=${q(query)}&time=${(T0 + 45_000) / 1000}`)
    expect(reply.status, reply.text).toBe(status)
    expect(bodyOf(PromError, reply).errorType).toBe(errorType)
    return bodyOf(PromError, reply).error
  })

const lk = (g: string, i: string) => ({ __name__: "lk", g, i })
const up = (instance: string) => ({ __name__: "up_i", instance, job: "j" })
const info = (name: string, instance: string, data: Record<string, string>) => ({
  __name__: name,
  instance,
  job: "j",
  ...data
})
const byInstance = (rows: ReadonlyArray<readonly [Record<string, string>, string]>) =>
  [...rows].sort((a, b) =>
    `${a[0].instance}${a[0].version}`.localeCompare(`${b[0].instance}${b[0].version}`)
  )
const sl = (name: string) => ({ __name__: "sl", name })

layer(
  TestServer.layer(freshDataDir("metrics-functions"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("PromQL functions of Prometheus 3", (it) => {
  it.effect("setup: the samples", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
      const written = yield* writeSeries(server, [
        {
          labels: { __name__: "sm" },
          samples: [
            [T0, 1],
            [T0 + 15_000, 3],
            [T0 + 30_000, 2],
            [T0 + 45_000, 6]
          ]
        },
        {
          labels: { __name__: "tt" },
          samples: [
            [T0, 5],
            [T0 + 15_000, 5],
            [T0 + 30_000, 1],
            [T0 + 45_000, 1]
          ]
        },
        {
          labels: { __name__: "tn" },
          samples: [
            [T0, NaN],
            [T0 + 15_000, 2]
          ]
        },
        // info(): three targets, two with target_info (b's labels changed at +30 s), one
        // with build_info, and info metrics that conflict or repeat.
        { labels: up("a:1"), samples: [[T0, 1]] },
        { labels: up("b:1"), samples: [[T0, 2]] },
        { labels: up("c:1"), samples: [[T0, 3]] },
        { labels: { ...up("a:1"), __name__: "own_i", region: "mine" }, samples: [[T0, 4]] },
        {
          labels: info("target_info", "a:1", { version: "1.0", region: "eu" }),
          samples: [[T0, 1]]
        },
        {
          labels: info("target_info", "b:1", { version: "2.0", region: "us" }),
          samples: [[T0, 1]]
        },
        {
          labels: info("target_info", "b:1", { version: "2.1", region: "us" }),
          samples: [[T0 + 30_000, 1]]
        },
        { labels: info("build_info", "a:1", { revision: "abc" }), samples: [[T0, 1]] },
        { labels: info("conflict_info", "a:1", { version: "9" }), samples: [[T0, 1]] },
        { labels: info("dup_info", "a:1", { x: "1" }), samples: [[T0, 1]] },
        { labels: info("dup_info", "a:1", { x: "2" }), samples: [[T0, 1]] },
        { labels: lk("x", "a"), samples: [[T0, 1]] },
        { labels: lk("x", "b"), samples: [[T0, 2]] },
        { labels: lk("y", "c"), samples: [[T0, 3]] },
        { labels: sl("item10"), samples: [[T0, 5]] },
        { labels: sl("item9"), samples: [[T0, NaN]] },
        { labels: sl("item1"), samples: [[T0, 7]] }
      ])
      expect(written.status, written.text).toBe(204)
    })
  )

  it.effect("mad_over_time: the median of the distances from the median", () =>
    Effect.gen(function* () {
      // 1, 3, 2, 6: median 2.5; distances 1.5, 0.5, 0.5, 3.5 → median (0.5 + 1.5) / 2 = 1.
      expect(yield* at("mad_over_time(sm[1m])", T0 + 45_000)).toEqual([[{}, "1"]])
      // One sample: its distance from itself, 0.
      expect(yield* at("mad_over_time(sm[10s])", T0 + 45_000)).toEqual([[{}, "0"]])
    })
  )

  it.effect("first_over_time and ts_of_*: a window's first sample, and when each pick was", () =>
    Effect.gen(function* () {
      const end = T0 + 45_000
      const seconds = (ms: number) => String(ms / 1000)
      // tt: 5, 5, 1, 1 at T0, +15 s, +30 s, +45 s. The first sample keeps the name, as
      // last_over_time does; the times are values, so they drop it.
      expect(yield* at("first_over_time(tt[1m])", end)).toEqual([[{ __name__: "tt" }, "5"]])
      expect(yield* at("first_over_time(tt[20s])", end)).toEqual([[{ __name__: "tt" }, "1"]])
      expect(yield* at("ts_of_first_over_time(tt[1m])", end)).toEqual([[{}, seconds(T0)]])
      expect(yield* at("ts_of_last_over_time(tt[1m])", end)).toEqual([[{}, seconds(end)]])
      // Ties: the last sample reaching the extreme, where max_over_time is the first's value.
      expect(yield* at("ts_of_max_over_time(tt[1m])", end)).toEqual([[{}, seconds(T0 + 15_000)]])
      expect(yield* at("ts_of_min_over_time(tt[1m])", end)).toEqual([[{}, seconds(end)]])
      // A NaN first sample gives way to any number after it.
      expect(yield* at("ts_of_max_over_time(tn[1m])", end)).toEqual([[{}, seconds(T0 + 15_000)]])
      // No sample in the window: no output.
      expect(yield* at("ts_of_last_over_time(tt[1m])", end + 120_000)).toEqual([])
    })
  )

  it.effect("info() adds the data labels of the info series sharing instance and job", () =>
    Effect.gen(function* () {
      const end = T0 + 45_000
      // target_info by default; b's newer series wins over the one still in the lookback;
      // c has no info series and stays as it is.
      expect(byInstance(yield* at("info(up_i)", end))).toEqual([
        [{ ...up("a:1"), version: "1.0", region: "eu" }, "1"],
        [{ ...up("b:1"), version: "2.1", region: "us" }, "2"],
        [up("c:1"), "3"]
      ])
      // A data matcher picks info series and the labels copied; a series without a match
      // is dropped, since region="eu" needs a value.
      expect(yield* at('info(up_i, {region="eu"})', end)).toEqual([
        [{ ...up("a:1"), region: "eu" }, "1"]
      ])
      // Another info metric by name; the others keep their labels.
      expect(byInstance(yield* at('info(up_i, {__name__="build_info"})', end))).toEqual([
        [{ ...up("a:1"), revision: "abc" }, "1"],
        [up("b:1"), "2"],
        [up("c:1"), "3"]
      ])
      expect(
        yield* at('info(up_i{instance="a:1"}, {__name__=~"target_info|build_info"})', end)
      ).toEqual([[{ ...up("a:1"), version: "1.0", region: "eu", revision: "abc" }, "1"]])
      // A label the series has is kept; info series pass through.
      expect(yield* at("info(own_i)", end)).toEqual([
        [{ ...up("a:1"), __name__: "own_i", region: "mine", version: "1.0" }, "4"]
      ])
      // (Both of b's within the lookback, as the selector alone answers.)
      expect(byInstance(yield* at("info(target_info)", end))).toEqual([
        [info("target_info", "a:1", { version: "1.0", region: "eu" }), "1"],
        [info("target_info", "b:1", { version: "2.0", region: "us" }), "1"],
        [info("target_info", "b:1", { version: "2.1", region: "us" }), "1"]
      ])
      // Two info metrics disagreeing on a label, and one name and identity twice at one time.
      const conflict = yield* failsWith(
        'info(up_i, {__name__=~"target_info|conflict_info"})',
        422,
        "execution"
      )
      expect(conflict).toBe("conflicting label: version")
      const duplicate = yield* failsWith('info(up_i, {__name__="dup_info"})', 422, "execution")
      expect(duplicate).toContain("found duplicate series for info metric")
      yield* failsWith("info(up_i, up_i offset 1m)", 400, "bad_data")
    })
  )

  it.effect(
    "vector matching: a side with nothing matches nothing; a scalar takes no matching",
    () =>
      Effect.gen(function* () {
        const end = T0 + 45_000
        // up_i has three series of job "j": duplicates for `on (job)`, which only matter
        // where the other side has a sample (Prometheus checks per step, after that).
        expect(yield* at("no_such_metric - on (job) up_i", end)).toEqual([])
        const duplicate = yield* failsWith("own_i - on (job) up_i", 422, "execution")
        expect(duplicate).toMatch(
          /^found duplicate series for the match group \{job="j"\} on the right hand-side of the operation: \[/
        )
        const scalar = yield* failsWith("1 - on (job) up_i", 400, "bad_data")
        // Prometheus's parser refuses it (its message has a line:column after the colon).
        expect(scalar).toBe(
          'invalid parameter "query": parse error: vector matching only allowed between instant vectors'
        )
      })
  )

  it.effect("^ follows Go's math.Pow: 1 to any power and -1 to an infinite one are 1", () =>
    Effect.gen(function* () {
      const end = T0 + 45_000
      for (const query of [
        "vector(1 ^ Inf)",
        "vector(1 ^ -Inf)",
        "vector(1 ^ NaN)",
        "vector((-1) ^ Inf)",
        "vector((-1) ^ -Inf)",
        "vector(NaN ^ 0)"
      ])
        expect(yield* at(query, end), query).toEqual([[{}, "1"]])
      expect(yield* at("vector((-1) ^ NaN)", end)).toEqual([[{}, "NaN"]])
      expect(yield* at("vector(2 ^ -Inf)", end)).toEqual([[{}, "0"]])
    })
  )

  it.effect("double_exponential_smoothing: Holt's level after the last sample", () =>
    Effect.gen(function* () {
      // sf = tf = 0.5 over 1, 3, 2, 6: level 1 and trend 2; then 3 (trend 2), 3.5 (trend
      // 0.5·2 + 0.5·2 = 2), 0.5·6 + 0.5·(3.5 + 1.25) = 5.375 (trend 0.5·0.5 + 0.5·2 = 1.25).
      expect(yield* at("double_exponential_smoothing(sm[1m], 0.5, 0.5)", T0 + 45_000)).toEqual([
        [{}, "5.375"]
      ])
      // Fewer than two samples in the window: no output.
      expect(yield* at("double_exponential_smoothing(sm[10s], 0.5, 0.5)", T0 + 45_000)).toEqual([])
      const sf = yield* failsWith("double_exponential_smoothing(sm[1m], 1, 0.5)", 422, "execution")
      expect(sf).toContain("invalid smoothing factor")
      const tf = yield* failsWith("double_exponential_smoothing(sm[1m], 0.5, 0)", 422, "execution")
      expect(tf).toContain("invalid trend factor")
      // Prometheus 3 has no holt_winters: a parse error, as there.
      yield* failsWith("holt_winters(sm[1m], 0.5, 0.5)", 400, "bad_data")
    })
  )

  it.effect("limitk keeps the first k series of each group in label order, names kept", () =>
    Effect.gen(function* () {
      expect(yield* at("limitk(2, lk)", T0)).toEqual([
        [lk("x", "a"), "1"],
        [lk("x", "b"), "2"]
      ])
      const byGroup = yield* at("limitk by (g) (1, lk)", T0)
      expect(byGroup).toEqual([
        [lk("x", "a"), "1"],
        [lk("y", "c"), "3"]
      ])
      expect(yield* at("limitk(0, lk)", T0)).toEqual([])
      expect(yield* at("limitk(10, lk)", T0)).toHaveLength(3)
    })
  )

  it.effect("limit_ratio: a ratio and its complement split the series; ±1 and 0 bound it", () =>
    Effect.gen(function* () {
      const all = [lk("x", "a"), lk("x", "b"), lk("y", "c")]
      const names = (rows: ReadonlyArray<readonly [Record<string, string>, string]>) =>
        rows.map(([labels]) => labels.i).sort()
      expect(names(yield* at("limit_ratio(1, lk)", T0))).toEqual(["a", "b", "c"])
      expect(names(yield* at("limit_ratio(-1, lk)", T0))).toEqual(["a", "b", "c"])
      // Past ±1 is ±1 (Prometheus warns and clamps).
      expect(names(yield* at("limit_ratio(5, lk)", T0))).toEqual(["a", "b", "c"])
      expect(yield* at("limit_ratio(0, lk)", T0)).toEqual([])
      // r keeps the series whose hash falls below r, -(1 - r) those at or above r.
      const some = names(yield* at("limit_ratio(0.5, lk)", T0))
      const rest = names(yield* at("limit_ratio(-0.5, lk)", T0))
      expect([...some, ...rest].sort()).toEqual(all.map((l) => l.i))
      // The same series at every step of a range query: either all points or none.
      const range = yield* get(
        `/query_range?query=${q("limit_ratio(0.5, lk)")}&start=${T0 / 1000}&end=${T0 / 1000 + 60}&step=30`
      )
      expect(
        range.text
          .match(/"i":"[abc]"/g)
          ?.map((m) => m.slice(5, 6))
          .sort()
      ).toEqual(some)
      const nan = yield* failsWith("limit_ratio(NaN, lk)", 422, "execution")
      expect(nan).toContain("NaN")
    })
  )

  it.effect("sort_by_label orders naturally, sort and sort_desc by value with NaN last", () =>
    Effect.gen(function* () {
      const order = (rows: ReadonlyArray<readonly [Record<string, string>, string]>) =>
        rows.map(([labels, value]) => `${labels.name}=${value}`)
      expect(order(yield* at('sort_by_label(sl, "name")', T0))).toEqual([
        "item1=7",
        "item9=NaN",
        "item10=5"
      ])
      expect(order(yield* at('sort_by_label_desc(sl, "name")', T0))).toEqual([
        "item10=5",
        "item9=NaN",
        "item1=7"
      ])
      // The metric name stays.
      expect((yield* at('sort_by_label(sl, "name")', T0))[0]![0]).toEqual(sl("item1"))
      expect(order(yield* at("sort(sl)", T0))).toEqual(["item10=5", "item1=7", "item9=NaN"])
      expect(order(yield* at("sort_desc(sl)", T0))).toEqual(["item1=7", "item10=5", "item9=NaN"])
      yield* failsWith("sort_by_label(sl, 1)", 400, "bad_data")
    })
  )

  it.effect("a trailing offset binds to the last operand, as Prometheus parses it", () =>
    Effect.gen(function* () {
      // At T0 + 45 s: sm is 6, sm 15 s earlier 2, so 6 + 2 = 8 (not (6 + 6) 15 s earlier, 4).
      expect(yield* at("sm + sm offset 15s", T0 + 45_000)).toEqual([[{}, "8"]])
      // sm 30 s earlier is 3: 6 - 3 × 3 = -3 (the whole difference 30 s earlier: 3 - 9 = -6).
      expect(yield* at("sm - 3 * sm offset 30s", T0 + 45_000)).toEqual([[{}, "-3"]])
      yield* failsWith("(sm + sm) offset 15s", 400, "bad_data")
    })
  )

  it.effect("a label named __proto__ is read, written and sorted by like any other", () =>
    Effect.gen(function* () {
      const server = yield* TestServer
      const written = yield* writeSeries(server, [
        { labels: { __name__: "pp", ["__proto__"]: "x", k: "1" }, samples: [[T0, 1]] },
        { labels: { __name__: "pp", k: "2" }, samples: [[T0, 2]] }
      ])
      expect(written.status, written.text).toBe(204)
      // The raw answer's JSON, not a Schema decode: a decoded record would drop the key.
      const metrics = (query: string) =>
        Effect.map(get(`/query?query=${q(query)}&time=${T0 / 1000}`), (reply) => {
          expect(reply.status, reply.text).toBe(200)
          const body = JSON.parse(reply.text) as {
            data: { result: Array<{ metric: Record<string, string> }> }
          }
          // Label names in order, as Prometheus prints a set.
          return body.data.result.map((s) =>
            JSON.stringify(Object.fromEntries(Object.entries(s.metric).sort()))
          )
        })
      // A series without the label reads it as empty, as any missing label.
      expect(
        (yield* metrics('label_replace(pp, "dst", "[$1]", "__proto__", "(.*)")')).sort()
      ).toEqual([
        '{"__name__":"pp","__proto__":"x","dst":"[x]","k":"1"}',
        '{"__name__":"pp","dst":"[]","k":"2"}'
      ])
      expect((yield* metrics('label_replace(pp, "__proto__", "z", "", "")')).sort()).toEqual([
        '{"__name__":"pp","__proto__":"z","k":"1"}',
        '{"__name__":"pp","__proto__":"z","k":"2"}'
      ])
      // Sorting by it reads "" where it is missing (which order "" and "x" take is the sort
      // algorithm's, in Prometheus too: its natural order has neither before the other).
      // Grouping and matching by it.
      expect((yield* metrics("sum by (__proto__) (pp)")).sort()).toEqual([
        '{"__proto__":"x"}',
        "{}"
      ])
      expect((yield* metrics("pp * on (__proto__, k) pp")).sort()).toEqual([
        '{"__proto__":"x","k":"1"}',
        '{"k":"2"}'
      ])
      expect((yield* metrics('sort_by_label(pp, "__proto__")')).sort()).toEqual([
        '{"__name__":"pp","__proto__":"x","k":"1"}',
        '{"__name__":"pp","k":"2"}'
      ])
    })
  )

  it.effect("native-histogram functions skip float samples: nothing", () =>
    Effect.gen(function* () {
      for (const fn of [
        "histogram_avg",
        "histogram_count",
        "histogram_sum",
        "histogram_stddev",
        "histogram_stdvar"
      ])
        expect(yield* at(`${fn}(lk)`, T0)).toEqual([])
      expect(yield* at("histogram_fraction(0, 1, lk)", T0)).toEqual([])
    })
  )
})
