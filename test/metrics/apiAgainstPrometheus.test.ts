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
  { path: "query?time=1&query=sum%28up" },
  { path: "query?time=1&query=up%29" },
  { path: "query?time=1&query=up%20%2B" },
  { path: "query?time=1&query=up%7Bjob%3D%22a%22" },
  { path: "query?time=1&query=up%5B5m" },
  { path: "query?time=1&query=foo%20bar" },
  { path: "query?time=1&query=rate%28up%5B5m%5D" },
  { path: "query?time=1&query=1%20%2B%2A%202" },
  { path: "query?time=1&query=rate%28up%5B5m%3A1m%3A1m%5D%29" },
  { path: "query?time=1&query=sum%20without%28job%29%28up%29%20by%20%28a%29" },
  { path: "query?time=1&query=nosuchfn%28up%29" },
  { path: "query?time=1&query=sum%28rate%28up%5B5m%5D%29" },
  { path: "query?time=1&query=%28up%29%29" },
  { path: "query?time=1&query=up%0A%20%20%2B%20" },
  { path: "query?time=1&query=a%3Ab%20c%3Ad" },
  { path: "query?time=1&query=up%205m" },
  { path: "query?time=1&query=up%20%22a%22" },
  { path: "query?time=1&query=sum%28up%29%20%2C%201" },
  { path: "query?time=1&query=sum%20by%20%28job%20up", kindOnly: true },
  { path: "query?time=1&query=sum%28up%29%20by", kindOnly: true },
  { path: "query?time=1&query=up%20offset", kindOnly: true },
  { path: "query?time=1&query=up%20%40%20foo", kindOnly: true },
  // Queries Prometheus's parser checks (types, argument counts), and valid ones around them.
  { path: "query?time=1700000000&query=time%28%29" },
  { path: "query?time=1700000000&query=rate%28up%5B5m%5D%29%5B5m%3A1m%5D" },
  { path: "query?time=1700000000&query=up%5B5m%5D%20offset%201m" },
  { path: "query?time=1700000000&query=%28up%5B5m%5D%29" },
  { path: "query?time=1700000000&query=rate%28up%5B5m%5D%20offset%201m%29" },
  { path: "query?time=1700000000&query=rate%28%28up%5B5m%5D%29%29" },
  { path: "query?time=1700000000&query=sum%28up%29%20by%20%28job%29%20%2B%20on%28%29%201" },
  { path: "query?time=1700000000&query=%22a%22" },
  { path: "query?time=1700000000&query=day_of_week%28%29" },
  {
    path: "query?time=1700000000&query=label_join%28up%2C%20%22a%22%2C%20%22-%22%2C%20%22job%22%2C%20%22instance%22%29"
  },
  { path: "query?time=1700000000&query=round%28up%29" },
  { path: "query?time=1700000000&query=1%20%3E%20bool%201" },
  { path: "query?time=1700000000&query=-up" },
  { path: "query?time=1700000000&query=up%20%3D%3D%20bool%20up" },
  { path: "query?time=1700000000&query=histogram_quantile%280.9%2C%20rate%28up%5B5m%5D%29%29" },
  { path: "query?time=1700000000&query=count_values%28%22v%22%2C%20up%29" },
  { path: "query?time=1700000000&query=topk%281%2C%20up%29" },
  { path: "query?time=1700000000&query=vector%281%29%20and%20on%28%29%20up" },
  { path: "query?time=1&query=rate%28up%29", positionless: true },
  { path: "query?time=1&query=abs%28up%2C%20up%29", positionless: true },
  { path: "query?time=1&query=time%281%29", positionless: true },
  { path: "query?time=1&query=round%28up%2C%20up%29", positionless: true },
  { path: "query?time=1&query=clamp%28up%29", positionless: true },
  { path: "query?time=1&query=histogram_quantile%280.9%29", positionless: true },
  { path: "query?time=1&query=histogram_quantile%28up%2C%20up%29", positionless: true },
  { path: "query?time=1&query=vector%28%22a%22%29", positionless: true },
  { path: "query?time=1&query=vector%28up%29", positionless: true },
  { path: "query?time=1&query=sum%28up%5B5m%5D%29", positionless: true },
  { path: "query?time=1&query=1%20%2B%20up%5B5m%5D", kindOnly: true },
  { path: "query?time=1&query=up%5B5m%5D%20%2B%201", positionless: true },
  { path: "query?time=1&query=%22a%22%20%2B%201", positionless: true },
  { path: "query?time=1&query=up%20and%201", positionless: true },
  { path: "query?time=1&query=1%20and%20up", positionless: true },
  { path: "query?time=1&query=1%20%3E%201", positionless: true },
  { path: "query?time=1&query=up%20and%20on%28job%29%20group_left%20up", positionless: true },
  {
    path: "query?time=1&query=up%20%2B%20on%28job%29%20group_left%28job%29%20up",
    positionless: true
  },
  { path: "query?time=1&query=topk%28%22a%22%2C%20up%29", positionless: true },
  { path: "query?time=1&query=count_values%281%2C%20up%29", positionless: true },
  { path: "query?time=1&query=quantile%28up%2C%20up%29", positionless: true },
  { path: "query?time=1&query=label_join%28up%2C%20%22a%22%29", positionless: true },
  { path: "query?time=1&query=round%28up%2C%201%2C%202%29", positionless: true },
  { path: "query?time=1&query=day_of_week%28up%2C%20up%29", positionless: true },
  { path: "query?time=1&query=abs%28up%5B5m%5D%29", positionless: true },
  { path: "query?time=1&query=%281%29%5B5m%3A1m%5D", positionless: true },
  { path: "query?time=1&query=-%22a%22", positionless: true },
  { path: "query?time=1&query=-up%5B5m%5D", kindOnly: true },
  { path: "query?time=1&query=scalar%28up%5B5m%5D%29", positionless: true },
  { path: "query?time=1&query=rate%281%29", positionless: true },
  { path: "query?time=1&query=sum%28%22a%22%29", positionless: true },
  { path: "query?time=1&query=sort%28%29", positionless: true },
  {
    path: "query?time=1&query=label_replace%28up%2C%20%22a%22%2C%20%22b%22%2C%20%22c%22%29",
    positionless: true
  },
  { path: "query?time=1&query=quantile_over_time%280.5%2C%20up%29", positionless: true },
  { path: "query?time=1&query=1%20-%20on%20%28job%29%20up", positionless: true },
  { path: "query?time=1&query=topk%28up%29", positionless: true },
  { path: "query?time=1&query=%7B%7D", positionless: true },
  { path: "query?time=1&query=up%7B__name__%3D%22x%22%7D", positionless: true },

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
