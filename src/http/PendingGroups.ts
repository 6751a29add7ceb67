/**
 * Every group of the contract that has no implementation yet, answering 501. A group
 * leaves this file when its real handlers land. Raw-bodied endpoints use `handleRaw`
 * so that the body is never read.
 */
import { HttpApiBuilder, HttpRouter } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"
import { SluiceApi } from "../../domain/Api.js"
import { NotImplemented } from "../../domain/Errors.js"

const hint = "The endpoint is part of the published contract but this build does not serve it yet."

// The route pattern in OpenAPI form (`/v1/tables/{table}`), so one message per endpoint.
const pending = ({ request }: { readonly request: HttpServerRequest.HttpServerRequest }) =>
  Effect.serviceOption(HttpRouter.RouteContext).pipe(
    Effect.flatMap((context) => {
      const path = Option.match(context, {
        onNone: () => request.url,
        onSome: ({ route }) => route.path.replace(/:(\w+)/g, "{$1}")
      })
      return Effect.fail(
        new NotImplemented({ message: `${request.method} ${path} is not implemented yet`, hint })
      )
    })
  )

const MetricsCompatPending = HttpApiBuilder.group(SluiceApi, "metricsCompat", (handlers) =>
  handlers
    .handleRaw("write", pending)
    .handle("query", pending)
    .handleRaw("queryForm", pending)
    .handle("queryRange", pending)
    .handleRaw("queryRangeForm", pending)
    .handle("series", pending)
    .handleRaw("seriesForm", pending)
    .handle("labels", pending)
    .handleRaw("labelsForm", pending)
    .handle("labelValues", pending)
    .handle("metadata", pending)
    .handle("buildinfo", pending)
)

/** Needs `Authentication` like any group layer that carries protected groups. */
export const PendingGroupsLive = MetricsCompatPending
