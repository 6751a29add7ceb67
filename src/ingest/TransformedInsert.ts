/**
 * `POST /v1/tables/{t}?transform=…`: each family of source formats flattens its payload
 * into rows in its own module; this only routes by name.
 */
import type { InsertTransform } from "../../domain/api/TablesApi.js"
import { insertOtlpTransform } from "../otlp/OtlpTransformInsert.js"
import { insertEventTransform } from "../transforms/EventTransformInsert.js"
import type { InsertTarget } from "./InsertHandler.js"

export const insertTransformed = (target: InsertTarget, transform: InsertTransform) => {
  switch (transform) {
    case "otlp-traces":
    case "otlp-logs":
    case "otlp-metrics":
      return insertOtlpTransform(target, transform)
    case "cloud-logs":
    case "cloud-audit":
    case "delivery-stream":
      return insertEventTransform(target, transform)
  }
}
