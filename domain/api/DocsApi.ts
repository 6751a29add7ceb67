import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"

/** A guide for people, generated from the same contract as `/v1/openapi.json`. */
export class DocsApi extends HttpApiGroup.make("docs")
  .add(
    HttpApiEndpoint.get("docs", "/v1/docs")
      .addSuccess(HttpApiSchema.Text({ contentType: "text/plain; charset=utf-8" }))
      .annotate(
        OpenApi.Description,
        "This guide: every endpoint with its parameters, body and an example request, as plain text."
      )
  )
  .annotate(OpenApi.Description, "API guide") {}
