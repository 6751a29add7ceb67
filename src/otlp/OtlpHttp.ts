/**
 * `POST /otlp/v1/{traces,logs,metrics}` (otlp-app): OTLP/HTTP in JSON or protobuf,
 * optionally gzip-compressed, answered in the request's own encoding.
 */
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import type { DataScopeNames } from "../../domain/Authorization.js"
import { CurrentCaller } from "../../domain/Identity.js"
import { requestedDatabase } from "../http/DatabaseParam.js"
import { wholeBody } from "../http/RequestBody.js"
import { OtlpExports } from "../../domain/OtlpExports.js"
import type { OtlpSignal } from "../../domain/OtlpExports.js"
import { encodingOf, otlpBodyRules } from "./native/OtlpBody.js"
import { responseBinary, responseJson } from "./native/OtlpResponse.js"

const bodyRules = otlpBodyRules()

export const OtlpHttpLive = HttpApiBuilder.group(SluiceApi, "otlp", (handlers) =>
  Effect.gen(function* () {
    const exports = yield* OtlpExports

    const handle =
      (signal: OtlpSignal) =>
      (input: {
        readonly urlParams: DataScopeNames
        readonly tableOverride: string | undefined
        readonly request: HttpServerRequest.HttpServerRequest
      }) =>
        Effect.gen(function* () {
          const { request, urlParams } = input
          const caller = yield* CurrentCaller
          const database = yield* requestedDatabase(urlParams.database)
          const target = yield* exports.target(
            caller,
            signal,
            { ...urlParams, database },
            input.tableOverride
          )
          const encoding = yield* encodingOf(request.headers["content-type"])
          // The rest of a refused body is drained, so that the error still reaches the client.
          const bytes = yield* wholeBody(request, bodyRules)
          const outcome = yield* exports.ingest(target, signal, encoding, bytes)
          return encoding === "json"
            ? HttpServerResponse.unsafeJson(responseJson(signal, outcome))
            : HttpServerResponse.uint8Array(responseBinary(signal, outcome), {
                contentType: "application/x-protobuf"
              })
        })

    return handlers
      .handleRaw("traces", ({ urlParams, headers, request }) =>
        handle("traces")({ urlParams, request, tableOverride: headers["x-service-traces-table"] })
      )
      .handleRaw("logs", ({ urlParams, headers, request }) =>
        handle("logs")({ urlParams, request, tableOverride: headers["x-service-logs-table"] })
      )
      .handleRaw("metrics", ({ urlParams, headers, request }) =>
        handle("metrics")({ urlParams, request, tableOverride: headers["x-service-metrics-table"] })
      )
  })
)
