/**
 * Labels of OTLP data in Prometheus: attribute values as text (arrays and maps as JSON,
 * as the OTLP transforms write them: `AttributeText.ts`),
 * attribute names sanitised with colliding ones' values joined by `;`, and the
 * resource's identifying attributes as `job` (`service.namespace/service.name`) and
 * `instance` (`service.instance.id`).
 */
import type { OtlpAttributes } from "../../../domain/OtlpCommonModel.js"
import { valueText } from "../../otlp/transforms/AttributeText.js"
import { labelSet } from "../SeriesLabels.js"
import { labelName } from "./PrometheusNames.js"

/** The resource attributes `job` and `instance` come from; the others go on `target_info`. */
export const IDENTIFYING = ["service.name", "service.namespace", "service.instance.id"]

export const attributeLabels = (attributes: OtlpAttributes) => {
  const labels = labelSet()
  for (const { key, value } of [...attributes].sort((a, b) => (a.key < b.key ? -1 : 1))) {
    const name = labelName(key)
    const v = valueText(value)
    if (v === "") continue
    labels[name] = labels[name] === undefined ? v : `${labels[name]};${v}`
  }
  return labels
}

/** `job` and `instance` from the resource, over any point attribute of those names. */
export const resourceLabels = (attributes: OtlpAttributes | undefined) => {
  const of = (key: string) => valueText(attributes?.find((kv) => kv.key === key)?.value)
  const service = of("service.name")
  const namespace = of("service.namespace")
  const instance = of("service.instance.id")
  const labels: Record<string, string> = {}
  if (service !== "") labels.job = namespace === "" ? service : `${namespace}/${service}`
  if (instance !== "") labels.instance = instance
  return labels
}
