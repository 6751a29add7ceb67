/**
 * Labels of OTLP data in Prometheus: attribute values as text (arrays and maps as JSON),
 * attribute names sanitised with colliding ones' values joined by `;`, and the
 * resource's identifying attributes as `job` (`service.namespace/service.name`) and
 * `instance` (`service.instance.id`).
 */
import type { OtlpAnyValue, OtlpAttributes } from "../../../domain/OtlpCommonModel.js"
import { labelName } from "./PrometheusNames.js"

/** The resource attributes `job` and `instance` come from; the others go on `target_info`. */
export const IDENTIFYING = ["service.name", "service.namespace", "service.instance.id"]

const text = (value: OtlpAnyValue | undefined): string => {
  const v = value?.value
  switch (v?.case) {
    case undefined:
      return ""
    case "stringValue":
      return v.value
    case "boolValue":
    case "intValue":
    case "doubleValue":
      return String(v.value)
    case "bytesValue":
      return Buffer.from(v.value).toString("base64")
    case "arrayValue":
      return JSON.stringify(v.value.values.map(text))
    case "kvlistValue":
      return JSON.stringify(
        Object.fromEntries(v.value.values.map((kv) => [kv.key, text(kv.value)]))
      )
  }
}

export const attributeLabels = (attributes: OtlpAttributes) => {
  const labels: Record<string, string> = {}
  for (const { key, value } of [...attributes].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    const name = labelName(key)
    const v = text(value)
    if (v === "") continue
    labels[name] = labels[name] === undefined ? v : `${labels[name]};${v}`
  }
  return labels
}

/** `job` and `instance` from the resource, over any point attribute of those names. */
export const resourceLabels = (attributes: OtlpAttributes | undefined) => {
  const of = (key: string) => text(attributes?.find((kv) => kv.key === key)?.value)
  const service = of("service.name")
  const namespace = of("service.namespace")
  const instance = of("service.instance.id")
  const labels: Record<string, string> = {}
  if (service !== "") labels.job = namespace === "" ? service : `${namespace}/${service}`
  if (instance !== "") labels.instance = instance
  return labels
}
