import { OpenApi } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import { SluiceApi } from "../../domain/Api.js"

type Method = "get" | "post" | "put" | "patch" | "delete"

// Every endpoint clients call, in OpenAPI path form.
const endpoints: ReadonlyArray<readonly [Method, string]> = [
  ["get", "/health"],
  ["post", "/v1/auth/login"],
  ["post", "/v1/auth/logout"],
  ["post", "/v1/auth/password"],
  ["post", "/v1/auth/cli/device/start"],
  ["post", "/v1/auth/cli/device/token"],
  // The device login's approval page, its sign-in form and its decision form.
  ["get", "/v1/auth/cli/device"],
  ["post", "/v1/auth/cli/device"],
  ["post", "/v1/auth/cli/device/decision"],
  // A signed-in session's approval (the console's).
  ["get", "/v1/auth/cli/device/pending"],
  ["post", "/v1/auth/cli/device/approval"],
  ["get", "/v1/docs"],
  ["get", "/v1/organizations"],
  ["post", "/v1/organizations"],
  ["patch", "/v1/organizations/{org}"],
  ["delete", "/v1/organizations/{org}"],
  ["get", "/v1/organizations/{org}/members"],
  ["post", "/v1/organizations/{org}/members"],
  ["patch", "/v1/organizations/{org}/members/{user_id}"],
  ["delete", "/v1/organizations/{org}/members/{user_id}"],
  ["get", "/v1/organizations/{org}/invitations"],
  ["delete", "/v1/organizations/{org}/invitations/{invitation_id}"],
  ["get", "/v1/invitations"],
  ["post", "/v1/invitations/{invitation_id}/accept"],
  ["delete", "/v1/invitations/{invitation_id}"],
  ["get", "/v1/databases"],
  ["post", "/v1/databases"],
  ["delete", "/v1/databases/{database}"],
  ["get", "/v1/tables"],
  ["get", "/v1/tables/{table}"],
  ["post", "/v1/tables/{table}"],
  ["delete", "/v1/tables/{table}"],
  ["post", "/v1/query"],
  ["post", "/v1/query/cancel"],
  ["get", "/v1/logs"],
  ["get", "/v1/keys"],
  ["post", "/v1/keys"],
  ["delete", "/v1/keys/{id_or_token}"],
  ["get", "/v1/clusters"],
  ["post", "/v1/clusters"],
  ["get", "/v1/clusters/sizes"],
  ["get", "/v1/clusters/metrics"],
  ["post", "/v1/clusters/verify-s3-access"],
  ["get", "/v1/clusters/{cluster_id}"],
  ["patch", "/v1/clusters/{cluster_id}"],
  ["delete", "/v1/clusters/{cluster_id}"],
  ["post", "/v1/clusters/{cluster_id}/stop"],
  ["post", "/v1/clusters/{cluster_id}/resume"],
  ["get", "/v1/clusters/{cluster_id}/metrics"],
  ["get", "/v1/apps"],
  ["put", "/v1/apps/{app_id}"],
  ["delete", "/v1/apps/{app_id}"],
  ["post", "/otlp/v1/traces"],
  ["post", "/otlp/v1/logs"],
  ["post", "/otlp/v1/metrics"],
  ["post", "/metrics-compat/api/v1/write"],
  ["get", "/metrics-compat/api/v1/query"],
  ["post", "/metrics-compat/api/v1/query"],
  ["get", "/metrics-compat/api/v1/query_range"],
  ["post", "/metrics-compat/api/v1/query_range"],
  ["get", "/metrics-compat/api/v1/series"],
  ["post", "/metrics-compat/api/v1/series"],
  ["get", "/metrics-compat/api/v1/labels"],
  ["post", "/metrics-compat/api/v1/labels"],
  ["get", "/metrics-compat/api/v1/label/{name}/values"],
  ["get", "/metrics-compat/api/v1/metadata"],
  ["get", "/metrics-compat/api/v1/query_exemplars"],
  ["post", "/metrics-compat/api/v1/query_exemplars"],
  ["get", "/metrics-compat/api/v1/rules"],
  ["get", "/metrics-compat/api/v1/alerts"],
  ["get", "/metrics-compat/api/v1/status/buildinfo"],
  ["get", "/metrics-compat/api/v1/format_query"],
  ["post", "/metrics-compat/api/v1/format_query"],
  ["get", "/v1/spl/capabilities"],
  ["post", "/v1/spl/search"],
  ["get", "/v1/apps/spl/searches"],
  ["post", "/v1/apps/spl/searches"],
  ["get", "/v1/apps/spl/searches/{search_id}"],
  ["patch", "/v1/apps/spl/searches/{search_id}"],
  ["delete", "/v1/apps/spl/searches/{search_id}"],
  ["post", "/services/collector/event"],
  ["post", "/services/collector"],
  ["post", "/services/collector/event/1.0"],
  ["post", "/services/collector/raw"],
  ["post", "/services/collector/raw/1.0"],
  ["get", "/services/collector/health"],
  // The collector answers under these two paths too.
  ["get", "/services/collector/health/1.0"],
  ["post", "/services/collector/ack"]
]

describe("the OpenAPI document", () => {
  const spec = OpenApi.fromApi(SluiceApi)

  it("is OpenAPI 3", () => {
    expect(spec.openapi.startsWith("3.")).toBe(true)
  })

  it.each(endpoints)("declares %s %s", (method, path) => {
    expect(spec.paths[path]?.[method]).toBeDefined()
  })

  it("declares nothing the spec does not list", () => {
    const declared = Object.entries(spec.paths).flatMap(([path, item]) =>
      (["get", "post", "put", "patch", "delete"] as const)
        .filter((method) => item[method] !== undefined)
        .map((method) => `${method} ${path}`)
    )
    expect(declared.sort()).toEqual(endpoints.map(([method, path]) => `${method} ${path}`).sort())
  })

  it("leaves the capabilities manifest and the event collector without bearer auth", () => {
    expect(spec.paths["/v1/spl/capabilities"]?.get?.security).toEqual([])
    expect(spec.paths["/services/collector/event"]?.post?.security).toEqual([])
    expect(spec.paths["/v1/query"]?.post?.security).toEqual([{ bearer: [] }])
  })
})
