/**
 * Every group of the contract that has no implementation yet, answering 501. A group
 * leaves this file when its real handlers land. Raw-bodied endpoints use `handleRaw`
 * so that the body is never read.
 */
import { HttpApiBuilder, HttpRouter } from "@effect/platform"
import type { HttpServerRequest } from "@effect/platform"
import { Effect, Layer, Option } from "effect"
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

const SplCapabilitiesPending = HttpApiBuilder.group(SluiceApi, "splCapabilities", (handlers) =>
  handlers.handle("capabilities", pending)
)

const SplPending = HttpApiBuilder.group(SluiceApi, "spl", (handlers) =>
  handlers.handle("search", pending)
)

const SavedSearchesPending = HttpApiBuilder.group(SluiceApi, "savedSearches", (handlers) =>
  handlers
    .handle("list", pending)
    .handle("create", pending)
    .handle("get", pending)
    .handle("update", pending)
    .handle("delete", pending)
)

/** Needs `Authentication` like any group layer that carries protected groups. */
export const PendingGroupsLive = Layer.mergeAll(
  SplCapabilitiesPending,
  SplPending,
  SavedSearchesPending
)
