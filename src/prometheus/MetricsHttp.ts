/**
 * `/metrics-compat/api/v1` (metrics-app): remote write in, and the Prometheus HTTP API
 * out, answered in Prometheus's own shapes so Grafana and promtool work unchanged.
 * sluice's own failures (credentials, the app gate, the body) keep sluice's error shape.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Clock, Effect, Option } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { AppAccess } from "../../domain/AppAccess.js"
import { AppIds } from "../../domain/AppIds.js"
import type { DataScopeNames } from "../../domain/Authorization.js"
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from "../../domain/Errors.js"
import type { QueryRefused } from "../../domain/Errors.js"
import { CurrentCaller } from "../../domain/Identity.js"
import type { ExplainedQuery } from "../../domain/PromQL.js"
import {
  ExemplarsQuery,
  InstantQuery,
  PromQL,
  PromQLError,
  RangeQuery,
  SeriesSelection
} from "../../domain/PromQL.js"
import { requestedDatabase } from "../http/DatabaseParam.js"
import { wholeBody } from "../http/RequestBody.js"
import type { BodyRules } from "../body/ReadableBody.js"
import type { ApiParams } from "./http/Params.js"
import {
  formParams,
  limitParam,
  queryParam,
  requiredTime,
  stepParam,
  timeoutParam,
  timeParam,
  urlParams
} from "./http/Params.js"
import { failure, failureOf, resultBody, resultData, success } from "./http/PrometheusJson.js"
import { badData } from "./promql/Requests.js"
import { RemoteWrite } from "../../domain/RemoteWrite.js"

// `explain=true` (sluice's own): the statements each selector compiles to, nothing run.
const explainWanted = (params: ApiParams) => params.get("explain") === "true"
const explained = ({ result, selectors }: ExplainedQuery) =>
  success({ ...resultData(result), explain: selectors })

type Where = DataScopeNames

/** `/metadata`'s `limit` and `limit_per_metric`: Go's `Atoi`, -1 when absent. */
const metadataLimit = (text: string | undefined, name: string) =>
  text === undefined || text === ""
    ? Effect.succeed(-1)
    : /^[+-]?\d+$/.test(text)
      ? Effect.succeed(Number(text))
      : Effect.fail(badData(`${name} must be a number`))

const writeRules = (limit: number): BodyRules => ({
  limit,
  compressions: [],
  tooLarge: () =>
    new PayloadTooLarge({
      message: `The remote-write body is larger than ${limit} bytes.`,
      hint: "Lower the sender's max_samples_per_send (queue_config), or raise SLUICE_METRICS_MAX_WRITE_BYTES."
    }),
  unsupportedEncoding: (encoding) =>
    new UnsupportedMediaType({
      message: `Content-encoding '${encoding}' is not supported for remote write.`,
      hint: "Remote write 1.0 sends the snappy block itself, without a content-encoding to undo."
    }),
  unreadable: new BadRequest({
    message: "The request body could not be read.",
    hint: "Retry the write."
  })
})

// Prometheus names no parameter for a bad `match[]` of `labels` and `label/…/values`
// (`/series` does).
const matchersUnnamed = <A, E>(effect: Effect.Effect<A, E>) =>
  Effect.mapError(effect, (error) =>
    error instanceof PromQLError
      ? new PromQLError({ errorType: error.errorType, message: error.message })
      : error
  )

/** Prometheus answers a query's own failures in its shape; sluice's errors pass through. */
const prometheusErrors = {
  PromQLError: (error: PromQLError) => Effect.succeed(failureOf(error)),
  QueryRefused: (error: QueryRefused) =>
    Effect.succeed(
      /timeout|timed out/i.test(error.message)
        ? failure("timeout", `query timed out: ${error.message}`)
        : failure("execution", error.message)
    )
}

export const MetricsHttpLive = HttpApiBuilder.group(SluiceApi, "metricsCompat", (handlers) =>
  Effect.gen(function* () {
    const writes = yield* RemoteWrite
    const promql = yield* PromQL
    const access = yield* AppAccess
    const bodyRules = writeRules(writes.limit)

    const readScope = (where: Where) =>
      Effect.gen(function* () {
        const caller = yield* CurrentCaller
        const database = yield* requestedDatabase(where.database)
        return yield* access.enter(caller, "read", AppIds.metrics, { ...where, database })
      })

    const now = Clock.currentTimeMillis

    const instant = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        const { scope, database } = yield* readScope(where)
        const time = yield* timeParam(params, "time", Option.some(yield* now))
        const timeout = yield* timeoutParam(params)
        const request = new InstantQuery({
          query: queryParam(params),
          time: time!,
          ...(timeout === undefined ? {} : { timeout })
        })
        if (explainWanted(params)) return explained(yield* promql.explain(scope, database, request))
        return resultBody(yield* promql.instant(scope, database, request))
      }).pipe(Effect.catchTags(prometheusErrors))

    const range = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        const { scope, database } = yield* readScope(where)
        const start = yield* requiredTime(params, "start")
        const end = yield* requiredTime(params, "end")
        const step = yield* stepParam(params)
        const timeout = yield* timeoutParam(params)
        const request = new RangeQuery({
          query: queryParam(params),
          start,
          end,
          step,
          ...(timeout === undefined ? {} : { timeout })
        })
        if (explainWanted(params)) return explained(yield* promql.explain(scope, database, request))
        return resultBody(yield* promql.range(scope, database, request))
      }).pipe(Effect.catchTags(prometheusErrors))

    const selectionOf = (params: ApiParams) =>
      Effect.gen(function* () {
        const start = yield* timeParam(params, "start", Option.none())
        const end = yield* timeParam(params, "end", Option.none())
        return new SeriesSelection({
          matchers: params.all("match[]"),
          ...(start === undefined ? {} : { start }),
          ...(end === undefined ? {} : { end })
        })
      })

    /** At most `limit` of the answer, and Prometheus's warning when there was more. */
    const limited = (params: ApiParams, all: ReadonlyArray<unknown>) =>
      Effect.map(limitParam(params), (limit) =>
        all.length > limit
          ? success(all.slice(0, limit), ["results truncated due to limit"])
          : success(all)
      )

    const series = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        const { scope, database } = yield* readScope(where)
        const selection = yield* selectionOf(params)
        return yield* limited(params, yield* promql.series(scope, database, selection))
      }).pipe(Effect.catchTags(prometheusErrors))

    const labels = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        const { scope, database } = yield* readScope(where)
        const selection = yield* selectionOf(params)
        const names = yield* matchersUnnamed(promql.labelNames(scope, database, selection))
        return yield* limited(params, names)
      }).pipe(Effect.catchTags(prometheusErrors))

    const exemplars = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        const { scope, database } = yield* readScope(where)
        const start = yield* timeParam(params, "start", Option.none())
        const end = yield* timeParam(params, "end", Option.none())
        const query = new ExemplarsQuery({
          query: queryParam(params),
          ...(start === undefined ? {} : { start }),
          ...(end === undefined ? {} : { end })
        })
        return Option.match(yield* promql.exemplars(scope, database, query), {
          onNone: () => HttpServerResponse.empty({ status: 204 }),
          onSome: success
        })
      }).pipe(Effect.catchTags(prometheusErrors))

    // sluice evaluates no recording or alerting rules: Prometheus's answers without rule files.
    const rules = (where: Where, params: ApiParams) =>
      Effect.gen(function* () {
        yield* readScope(where)
        const type = (params.get("type") ?? "").toLowerCase()
        if (type !== "" && type !== "alert" && type !== "record")
          return yield* badData(`not supported value "${type}"`, "type")
        return success({ groups: [] })
      }).pipe(Effect.catchTag("PromQLError", prometheusErrors.PromQLError))

    type Run<E, R> = (
      where: Where,
      params: ApiParams
    ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
    type RawInput = {
      readonly urlParams: Where
      readonly request: HttpServerRequest.HttpServerRequest
    }

    const form =
      <E, R>(run: Run<E, R>) =>
      ({ urlParams: where, request }: RawInput) =>
        Effect.matchEffect(formParams(request), {
          onFailure: (error) => Effect.succeed(failureOf(error)),
          onSuccess: (params) => run(where, params)
        })

    /** `format_query` needs no data: Prometheus answers it without a storage read. */
    const formatted = (query: string | undefined) =>
      promql
        .format(query ?? "")
        .pipe(Effect.map(success), Effect.catchTag("PromQLError", prometheusErrors.PromQLError))

    const get =
      <E, R>(run: Run<E, R>) =>
      ({ urlParams: where, request }: RawInput) =>
        run(where, urlParams(request))

    return handlers
      .handleRaw("write", ({ urlParams: where, request }) =>
        Effect.gen(function* () {
          const caller = yield* CurrentCaller
          const database = yield* requestedDatabase(where.database)
          // Snappy is the protocol's own framing, undone by the decoder, not a content-encoding.
          const body = yield* wholeBody(request, bodyRules, "identity")
          yield* writes.write(caller, { ...where, database }, body)
          return HttpServerResponse.empty({ status: 204 })
        })
      )
      .handleRaw("query", get(instant))
      .handleRaw("queryForm", form(instant))
      .handleRaw("queryRange", get(range))
      .handleRaw("queryRangeForm", form(range))
      .handleRaw("series", get(series))
      .handleRaw("seriesForm", form(series))
      .handleRaw("labels", get(labels))
      .handleRaw("labelsForm", form(labels))
      .handleRaw("labelValues", ({ urlParams: where, path, request }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* readScope(where)
          const params = urlParams(request)
          const selection = yield* selectionOf(params)
          return yield* limited(
            params,
            yield* matchersUnnamed(promql.labelValues(scope, database, path.name, selection))
          )
        }).pipe(Effect.catchTags(prometheusErrors))
      )
      .handleRaw("metadata", ({ urlParams: where }) =>
        Effect.gen(function* () {
          const { scope, database } = yield* readScope(where)
          // Prometheus's: a negative limit is none, 0 answers nothing; 0 per metric is none.
          const limit = yield* metadataLimit(where.limit, "limit")
          const perMetric = yield* metadataLimit(where.limit_per_metric, "limit_per_metric")
          const all = yield* promql.metadata(scope, database, where.metric)
          const entries = Object.entries(all)
            .slice(0, limit < 0 ? undefined : limit)
            .map(([name, list]) => [name, perMetric > 0 ? list.slice(0, perMetric) : list])
          return success(Object.fromEntries(entries))
        }).pipe(Effect.catchTags(prometheusErrors))
      )
      .handleRaw("queryExemplars", get(exemplars))
      .handleRaw("queryExemplarsForm", form(exemplars))
      .handleRaw("rules", get(rules))
      .handleRaw("alerts", ({ urlParams: where }) =>
        Effect.as(readScope(where), success({ alerts: [] }))
      )
      .handleRaw("buildinfo", () =>
        Effect.succeed(
          success({
            version: "2.42.0",
            revision: "sluice",
            branch: "",
            buildUser: "",
            buildDate: "",
            goVersion: ""
          })
        )
      )
      .handleRaw("formatQuery", ({ urlParams: params }) => formatted(params.query))
      .handleRaw("formatQueryForm", ({ request }) =>
        Effect.matchEffect(formParams(request), {
          onFailure: (error) => Effect.succeed(failureOf(error)),
          onSuccess: (params) => formatted(params.get("query"))
        })
      )
  })
)
