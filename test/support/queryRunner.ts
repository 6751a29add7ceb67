/**
 * The query capability over a partial engine double, for tests of what the runner does
 * between a caller and the engine: one read-only key's scope, and `QueryRunnerLive` with
 * the settings a test names.
 */
import { ConfigProvider, Layer } from "effect"
import { ClusterScope } from "../../domain/Authorization.js"
import type { Engines } from "../../domain/Engine.js"
import { ApiKeyCaller } from "../../domain/Identity.js"
import { ApiKeyId, ClusterId, DatabaseName, OrganizationId } from "../../domain/Ids.js"
import { Provisioner } from "../../domain/Provisioner.js"
import { QueryConfig, SluiceConfig } from "../../src/config/SluiceConfig.js"
import { ControlPlaneEvents } from "../../src/events/ControlPlaneEvents.js"
import { QueryRunnerLive } from "../../src/query/QueryRunnerLive.js"
import { RunningQueries } from "../../src/query/RunningQueries.js"
import { TableEvents } from "../../src/tables/TableEvents.js"
import { partial } from "./doubles.js"

export const organizationId = OrganizationId.make("00000000-0000-4000-8000-000000000001")
export const clusterId = ClusterId.make("00000000-0000-4000-8000-000000000002")
export const database = DatabaseName.make("default")

/** A read-only API key of cluster `main` in organization `acme`. */
export const scope = new ClusterScope({
  organizationId,
  organizationName: "acme",
  clusterId,
  clusterName: "main",
  defaultDatabase: undefined,
  caller: new ApiKeyCaller({
    keyId: ApiKeyId.make("00000000-0000-4000-8000-000000000003"),
    keyName: "ci",
    permission: "read_only",
    organizationId,
    organizationName: "acme",
    clusterId,
    clusterName: "main",
    defaultDatabase: database
  })
})

/** `QueryRunner` over `engines`, its settings read from `settings` alone. */
export const queryRunnerOver = (
  engines: Layer.Layer<Engines>,
  settings: Readonly<Record<string, string>> = {}
) =>
  QueryRunnerLive.pipe(
    Layer.provide(
      Layer.mergeAll(
        engines,
        RunningQueries.Default.pipe(
          Layer.provide(Layer.merge(ControlPlaneEvents.local, SluiceConfig.layer))
        ),
        partial(Provisioner, {}),
        QueryConfig.layer,
        SluiceConfig.layer,
        TableEvents.Default.pipe(Layer.provide(ControlPlaneEvents.local))
      )
    ),
    Layer.provide(
      Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings))))
    )
  )
