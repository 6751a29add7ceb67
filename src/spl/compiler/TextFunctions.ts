/**
 * Text, conversion and multivalue eval functions of the subset: `replace`
 * (every match, `\1` backreferences), `split` (a multivalue), `mvcount` (1 for a single
 * value, null for null), `tostring(x, "commas"|"hex"|"duration")`, `tonumber(s, base)`.
 * A value used more than once is read once through a lambda, so nesting does not repeat
 * its SQL.
 */
import { quoteString } from "../../engine/Sql.js"
import { refuse } from "./Refusal.js"
import { asNumber, asText, numberLiteral } from "./Rows.js"
import type { Value } from "./Rows.js"

interface CallContext {
  readonly command: string
  readonly at: number
}

export const TEXT_FUNCTIONS = ["replace", "split", "mvcount"] as const

/** `body(__x)` with `__x` the value of `sql`, computed once. */
const once = (sql: string, body: (x: string) => string) =>
  `arrayElement(arrayMap(__x -> ${body("__x")}, [${sql}]), 1)`

/** Whole digits with a comma every three, from the right. */
const commas = (digits: string) =>
  `arrayStringConcat(arrayReverse(arrayMap(__i -> reverse(substring(reverse(${digits}), __i * 3 + 1, 3)), range(toUInt64(intDiv(length(${digits}) + 2, 3))))), ',')`

/** `tostring(x, how)`: 1,234,567.89 (two decimals at most), 0xFF, [D+]HH:MM:SS. */
export const formattedString = (context: CallContext, value: Value, how: string | null): Value => {
  const number = asNumber(value)
  switch (how) {
    case "commas":
      return {
        sql: once(
          number,
          (x) =>
            `if(isNull(${x}), NULL, concat(if(${x} < 0, '-', ''), ${commas(`toString(toUInt64(floor(round(abs(${x}), 2))))`)}, ` +
            `if(round(abs(${x}), 2) = floor(round(abs(${x}), 2)), '', concat('.', splitByChar('.', toString(round(abs(${x}), 2)))[2]))))`
        ),
        kind: "string"
      }
    case "hex":
      // hex() writes whole bytes (01F4); Splunk writes 0x1F4.
      return {
        sql: `concat('0x', replaceRegexpOne(hex(toInt64(${number})), '^0+(.)', '\\1'))`,
        kind: "string"
      }
    case "duration":
      return {
        sql: once(
          `toInt64(floor(${number}))`,
          (x) =>
            `concat(if(${x} >= 86400, concat(toString(intDiv(${x}, 86400)), '+'), ''), ` +
            `leftPad(toString(intDiv(${x} % 86400, 3600)), 2, '0'), ':', ` +
            `leftPad(toString(intDiv(${x} % 3600, 60)), 2, '0'), ':', leftPad(toString(${x} % 60), 2, '0'))`
        ),
        kind: "string"
      }
    default:
      return refuse(
        context.command,
        context.at,
        'tostring() formats with "commas", "hex" or "duration"'
      )
  }
}

const DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/** `tonumber(s, base)`: digits of the base (2 to 36), else null. */
export const numberInBase = (context: CallContext, value: Value, base: number): Value => {
  if (!Number.isInteger(base) || base < 2 || base > 36)
    refuse(context.command, context.at, "tonumber() reads bases 2 to 36")
  if (base === 10) return { sql: asNumber(value), kind: "number" }
  const digits = (x: string) =>
    `arrayMap(__c -> toInt64(position(${quoteString(DIGITS)}, __c)) - 1, splitByString('', upperUTF8(trimBoth(${x}))))`
  return {
    sql: once(
      asText(value),
      (x) =>
        `if(isNull(${x}) OR trimBoth(${x}) = '' OR NOT arrayAll(__d -> __d >= 0 AND __d < ${base}, ${digits(x)}), NULL, ` +
        `toFloat64(arraySum(arrayMap((__d, __k) -> __d * pow(${base}, length(${digits(x)}) - __k), ${digits(x)}, arrayEnumerate(${digits(x)})))))`
    ),
    kind: "number"
  }
}

export const textCall = (
  context: CallContext,
  name: string,
  args: ReadonlyArray<Value>,
  literals: ReadonlyArray<string | null>
): Value => {
  const arity = name === "mvcount" ? 1 : name === "split" ? 2 : 3
  if (args.length !== arity)
    refuse(context.command, context.at, `${name}() takes ${arity} argument${arity > 1 ? "s" : ""}`)
  const [first, second, third] = [args[0]!, args[1], args[2]]
  switch (name) {
    case "replace":
      return {
        sql: `replaceRegexpAll(${asText(first)}, ${asText(second!)}, ${asText(third!)})`,
        kind: "string"
      }
    case "split": {
      // The engine splits by a constant separator only.
      const separator =
        literals[1] ??
        refuse(context.command, context.at, 'split() takes its separator as a "quoted" literal')
      return {
        sql: once(
          asText(first),
          (x) =>
            `if(isNull(${x}), [], splitByString(${quoteString(separator)}, assumeNotNull(${x})))`
        ),
        kind: "multi"
      }
    }
    default:
      return {
        sql:
          first.kind === "multi"
            ? once(first.sql, (x) => `if(empty(${x}), NULL, toFloat64(length(${x})))`)
            : `if(isNull(${asText(first)}), NULL, ${numberLiteral(1)})`,
        kind: "number"
      }
  }
}
