/**
 * The API's edges beside the real Prometheus 2.42, asked the same calls after the same
 * write: what Grafana's data source asks besides queries (`query_exemplars`, `rules`,
 * `alerts`) and how bad times and queries are refused, compared by status and body.
 * Skips without Prometheus.
 */
import { expect, layer } from "@effect/vitest"
import { Effect } from "effect"
import { isDeepStrictEqual } from "node:util"
import { installApp } from "../support/client.js"
import { hasPrometheus, startReceiver } from "../support/prometheus.js"
import { REMOTE_WRITE_HEADERS, remoteWriteBody } from "../support/remoteWrite.js"
import { adminKeyOf, freshDataDir, TestServer } from "../support/server.js"

const ADMIN = "api-compare-admin@example.com"
const PASSWORD = "api compare admin password"
const T0 = 1_700_000_000_000

/** Status and body of a call; a form POST when `form` is given. */
const ask = (url: string, token: string | undefined, form?: string) =>
  Effect.promise(async () => {
    const headers: Record<string, string> =
      token === undefined ? {} : { authorization: `Bearer ${token}` }
    const response = await fetch(
      url,
      form === undefined
        ? { headers }
        : {
            method: "POST",
            body: form,
            headers: { ...headers, "content-type": "application/x-www-form-urlencoded" }
          }
    )
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  })

/** An instant query of `query` at `time` (Unix seconds), as a call below. */
const instant = (query: string, time = 1) => ({
  path: `query?time=${time}&query=${encodeURIComponent(query)}`
})

/**
 * Each asked of both as written (paths under /api/v1); `form` sends the parameters as a
 * body. `kindOnly`: compared by status, error kind and whether the error names the
 * parameter, where sluice words the rest otherwise: a `match[]` that is no selector
 * (Prometheus reads those with a grammar of their own), what Prometheus adds about a
 * syntax error's context (`in grouping opts, …`), ranges after an operator, and the stage
 * a timeout names. `positionless`: compared whole, less the `line:column: ` that
 * Prometheus's parser puts before its message and sluice's does not.
 */
const CALLS: ReadonlyArray<{
  readonly path: string
  readonly form?: string
  readonly kindOnly?: true
  readonly positionless?: true
}> = [
  { path: `query_exemplars?query=up&start=${T0 / 1000 - 60}&end=${T0 / 1000 + 60}` },
  { path: "query_exemplars?query=rate(up[5m])" },
  { path: "query_exemplars", form: `query=up&start=0&end=${T0 / 1000}` },
  // No selector: Prometheus answers 204 without a body.
  { path: "query_exemplars?query=1%2B1" },
  { path: "query_exemplars" },
  { path: "query_exemplars?query=up(" },
  { path: "query_exemplars?query=up&start=abc" },
  { path: "query_exemplars?query=up(&end=abc" },
  { path: "query_exemplars?query=up&start=100&end=10" },
  { path: "rules" },
  { path: "rules?type=alert" },
  { path: "rules?type=RECORD&rule_name[]=x" },
  { path: "rules?type=foo" },
  { path: "alerts" },
  // Optional times say which parameter and why; required ones (query_range's) less.
  { path: "series?match[]=up&start=abc" },
  { path: "labels?end=yesterday" },
  { path: "label/job/values?start=abc" },
  { path: "query?query=up&time=abc" },
  { path: "query_range?query=up&start=abc&end=1&step=1" },
  { path: "query?query=up&timeout=abc" },
  { path: "query?query=up&timeout=-1s" },
  { path: "query?query=up&timeout=1s" },
  { path: "query_range?query=up&start=0&end=10&step=1&timeout=abc" },
  { path: "query" },
  { path: "query?query=%20%23%20a%20comment" },
  { path: "query_range" },
  { path: "query_range?query=up&start=0" },
  { path: "query?query=up&timeout=0", kindOnly: true },
  { path: "query_range?query=up&start=1&end=0&step=1" },
  { path: "query_range?query=up&start=0&end=100000&step=1" },
  { path: "query_range?query=up&start=0&end=10&step=0" },
  { path: "query_range?query=up&start=0&end=10&step=-1" },
  { path: "query_range?query=up&start=0&end=10&step=abc" },
  { path: "query_range?query=up&start=0&end=10" },
  { path: "series" },
  { path: "series?match[]=up(", kindOnly: true },
  { path: "series?match[]=1", kindOnly: true },
  { path: "series?match[]=rate(up[5m])", kindOnly: true },
  { path: "series?match[]=up&start=10&end=0" },
  { path: "labels?match[]=up(", kindOnly: true },
  { path: "labels?match[]=1", kindOnly: true },
  { path: "label/job/values?match[]=up(", kindOnly: true },
  { path: "format_query?query=sum(" },
  { path: "format_query" },
  // Syntax errors: where and what, as Prometheus's parser says (less what it adds about
  // the context for the last few).
  { ...instant("sum(up") },
  { ...instant("up)") },
  { ...instant("up +") },
  { ...instant('up{job="a"') },
  { ...instant("up[5m") },
  { ...instant("foo bar") },
  { ...instant("rate(up[5m]") },
  { ...instant("1 +* 2") },
  { ...instant("rate(up[5m:1m:1m])") },
  { ...instant("sum without(job)(up) by (a)") },
  { ...instant("nosuchfn(up)") },
  { ...instant("sum(rate(up[5m])") },
  { ...instant("(up))") },
  { ...instant("up\n  + ") },
  { ...instant("a:b c:d") },
  { ...instant("up 5m") },
  { ...instant('up "a"') },
  { ...instant("sum(up) , 1") },
  { ...instant("sum by (job up"), kindOnly: true },
  { ...instant("sum(up) by"), kindOnly: true },
  { ...instant("up offset"), kindOnly: true },
  { ...instant("up @ foo"), kindOnly: true },
  // Queries Prometheus's parser checks (types, argument counts), and valid ones around them.
  { ...instant("time()", 1700000000) },
  { ...instant("rate(up[5m])[5m:1m]", 1700000000) },
  { ...instant("up[5m] offset 1m", 1700000000) },
  { ...instant("(up[5m])", 1700000000) },
  { ...instant("rate(up[5m] offset 1m)", 1700000000) },
  { ...instant("rate((up[5m]))", 1700000000) },
  { ...instant("sum(up) by (job) + on() 1", 1700000000) },
  { ...instant('"a"', 1700000000) },
  { ...instant("day_of_week()", 1700000000) },
  { ...instant('label_join(up, "a", "-", "job", "instance")', 1700000000) },
  { ...instant("round(up)", 1700000000) },
  { ...instant("1 > bool 1", 1700000000) },
  { ...instant("-up", 1700000000) },
  { ...instant("up == bool up", 1700000000) },
  { ...instant("histogram_quantile(0.9, rate(up[5m]))", 1700000000) },
  { ...instant('count_values("v", up)', 1700000000) },
  { ...instant("topk(1, up)", 1700000000) },
  { ...instant("vector(1) and on() up", 1700000000) },
  { ...instant("rate(up)"), positionless: true },
  { ...instant("abs(up, up)"), positionless: true },
  { ...instant("time(1)"), positionless: true },
  { ...instant("round(up, up)"), positionless: true },
  { ...instant("clamp(up)"), positionless: true },
  { ...instant("histogram_quantile(0.9)"), positionless: true },
  { ...instant("histogram_quantile(up, up)"), positionless: true },
  { ...instant('vector("a")'), positionless: true },
  { ...instant("vector(up)"), positionless: true },
  { ...instant("sum(up[5m])"), positionless: true },
  { ...instant("1 + up[5m]"), kindOnly: true },
  { ...instant("up[5m] + 1"), positionless: true },
  { ...instant('"a" + 1'), positionless: true },
  { ...instant("up and 1"), positionless: true },
  { ...instant("1 and up"), positionless: true },
  { ...instant("1 > 1"), positionless: true },
  { ...instant("up and on(job) group_left up"), positionless: true },
  { ...instant("up + on(job) group_left(job) up"), positionless: true },
  { ...instant('topk("a", up)'), positionless: true },
  { ...instant("count_values(1, up)"), positionless: true },
  { ...instant("quantile(up, up)"), positionless: true },
  { ...instant('label_join(up, "a")'), positionless: true },
  { ...instant("round(up, 1, 2)"), positionless: true },
  { ...instant("day_of_week(up, up)"), positionless: true },
  { ...instant("abs(up[5m])"), positionless: true },
  { ...instant("(1)[5m:1m]"), positionless: true },
  { ...instant('-"a"'), positionless: true },
  { ...instant("-up[5m]"), kindOnly: true },
  { ...instant("scalar(up[5m])"), positionless: true },
  { ...instant("rate(1)"), positionless: true },
  { ...instant('sum("a")'), positionless: true },
  { ...instant("sort()"), positionless: true },
  { ...instant('label_replace(up, "a", "b", "c")'), positionless: true },
  { ...instant("quantile_over_time(0.5, up)"), positionless: true },
  { ...instant("1 - on (job) up"), positionless: true },
  { ...instant("topk(up)"), positionless: true },
  { ...instant("{}"), positionless: true },
  { ...instant('up{__name__="x"}'), positionless: true },

  { path: "label/__name__/values?match[]=up" },
  { path: "metadata?limit=abc" },
  { path: "metadata?metric=nope" },
  { path: "query?query=up&time=1e20" },
  { path: "query", form: "query=up&time=abc" },
  { path: "query?query=up&time=2023-11-14T22:13:20Z" },
  { path: "query?query=up&time=2023-11-14T22:13:20.000+00:00" }
]

layer(
  TestServer.layer(freshDataDir("metrics-api-compare"), {
    SLUICE_ADMIN_EMAIL: ADMIN,
    SLUICE_ADMIN_PASSWORD: PASSWORD
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("The Prometheus API's edges beside Prometheus 2.42", (it) => {
  it.scoped.skipIf(!hasPrometheus)(
    "exemplars, rules, alerts and bad parameters answer as Prometheus answers them",
    () =>
      Effect.gen(function* () {
        const server = yield* TestServer
        const token = adminKeyOf(server)
        yield* installApp(server, "metrics-app", ADMIN, PASSWORD)
        const reference = yield* startReceiver
        const body = remoteWriteBody([
          { labels: { __name__: "up", job: "a", instance: "x" }, samples: [[T0, 1]] }
        ])
        const sluice = `${server.url}/metrics-compat`
        for (const [base, headers] of [
          [reference.url, REMOTE_WRITE_HEADERS],
          [sluice, { ...REMOTE_WRITE_HEADERS, authorization: `Bearer ${token}` }]
        ] as const) {
          const status = yield* Effect.promise(() =>
            fetch(`${base}/api/v1/write`, { method: "POST", body, headers }).then((r) => r.status)
          )
          expect(status).toBe(204)
        }
        // Every difference at once, each with both answers.
        const differences: Array<unknown> = []
        for (const call of CALLS) {
          const theirs = yield* ask(`${reference.url}/api/v1/${call.path}`, undefined, call.form)
          const ours = yield* ask(`${sluice}/api/v1/${call.path}`, token, call.form)
          const kind = (reply: typeof ours) => [
            reply.status,
            reply.body.errorType,
            String(reply.body.error).startsWith("invalid parameter")
          ]
          const theirsCompared = call.positionless
            ? JSON.parse(JSON.stringify(theirs).replace(/\d+:\d+: parse error/, "parse error"))
            : theirs
          // Equal as JSON values: the order of an object's keys is no part of the answer.
          const same =
            call.kindOnly === undefined
              ? isDeepStrictEqual(ours, theirsCompared)
              : isDeepStrictEqual(kind(ours), kind(theirs))
          if (!same) differences.push({ call: call.path, ours, theirs: theirsCompared })
        }
        expect(differences).toEqual([])
        // The answers are not all alike: empty lists, no content, and refusals.
        const statuses = new Set<number>()
        for (const call of CALLS)
          statuses.add((yield* ask(`${sluice}/api/v1/${call.path}`, token, call.form)).status)
        expect([...statuses].sort()).toEqual([200, 204, 400, 503])
      })
  )
})
