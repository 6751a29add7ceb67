/** Numbers printed as Prometheus (Go) prints them. */

/** A sample value in JSON: `strconv.FormatFloat(v, 'g'-like)` with a two-digit exponent. */
export const goSampleValue = (value: number): string => {
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  if (Object.is(value, -0)) return "-0"
  return String(value).replace(/e([+-])(\d)$/, "e$10$2")
}

/** `strconv.FormatFloat(v, 'f', -1, 64)`: the shortest digits, never an exponent. */
export const goPlainDecimal = (value: number): string => {
  if (Number.isNaN(value)) return "NaN"
  if (value === Infinity) return "+Inf"
  if (value === -Infinity) return "-Inf"
  if (Object.is(value, -0)) return "-0"
  const text = String(value)
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, head, tail = "", exponentText] = match
  const digits = head! + tail
  const exponent = Number(exponentText)
  if (exponent >= 0) return sign + digits.padEnd(exponent + 1, "0")
  return `${sign}0.${"0".repeat(-exponent - 1)}${digits}`
}
