/**
 * The eval functions of the subset. Each takes
 * compiled arguments; a name outside the list, or a form of one that is not supported,
 * is refused at the call's position.
 */
import { refuse } from "./Refusal.js"
import { asNumber, asText } from "./Rows.js"
import type { Value } from "./Rows.js"
import { formattedString, numberInBase, TEXT_FUNCTIONS, textCall } from "./TextFunctions.js"
import { TIME_FUNCTIONS, timeCall } from "./TimeFunctions.js"

interface CallContext {
  readonly command: string
  readonly at: number
  /** When the search started (epoch ms), for `now()`. */
  readonly now: number
}

/** Branches of `if`/`case`/`coalesce` share one type: numbers if all are, else text. */
const unify = (values: ReadonlyArray<Value>) => {
  const numbers = values.every((v) => v.kind === "number" || v.kind === "time")
  return {
    sqls: values.map((v) => (numbers ? asNumber(v) : asText(v))),
    kind: numbers ? ("number" as const) : ("string" as const)
  }
}

const test = (context: CallContext, name: string, value: Value) =>
  value.kind === "bool"
    ? value.sql
    : refuse(context.command, context.at, `${name}() needs a true/false test as its condition`)

const INTEGER = /^toFloat64\((-?\d+)\)$/

export const FUNCTIONS = [
  "if",
  "case",
  "coalesce",
  "lower",
  "upper",
  "len",
  "substr",
  "round",
  "tonumber",
  "tostring",
  "isnull",
  "isnotnull",
  "like",
  "match",
  ...TEXT_FUNCTIONS,
  ...TIME_FUNCTIONS
] as const

/**
 * `literals[i]` is the text of argument i when it is a quoted string as written (formats,
 * modifiers and separators must be, to become SQL here).
 */
export const callSql = (
  context: CallContext,
  name: string,
  args: ReadonlyArray<Value>,
  literals: ReadonlyArray<string | null>
): Value => {
  if ((TIME_FUNCTIONS as ReadonlyArray<string>).includes(name))
    return timeCall(context, name, args, literals)
  if ((TEXT_FUNCTIONS as ReadonlyArray<string>).includes(name))
    return textCall(context, name, args, literals)
  const arity = (min: number, max = min) =>
    args.length < min || args.length > max
      ? refuse(
          context.command,
          context.at,
          `${name}() takes ${min === max ? min : `${min} to ${max}`} arguments`
        )
      : undefined
  const arg = (i: number) => args[i]!
  switch (name) {
    case "if": {
      arity(3)
      const { sqls, kind } = unify([arg(1), arg(2)])
      return { sql: `if(${test(context, name, arg(0))}, ${sqls[0]}, ${sqls[1]})`, kind }
    }
    case "case": {
      if (args.length === 0 || args.length % 2 !== 0)
        refuse(context.command, context.at, "case() takes pairs of a test and a value")
      const tests = args.filter((_, i) => i % 2 === 0).map((a) => test(context, name, a))
      const { sqls, kind } = unify(args.filter((_, i) => i % 2 === 1))
      const pairs = tests.map((t, i) => `${t}, ${sqls[i]}`).join(", ")
      return { sql: `multiIf(${pairs}, NULL)`, kind }
    }
    case "coalesce": {
      if (args.length === 0) refuse(context.command, context.at, "coalesce() needs arguments")
      const { sqls, kind } = unify(args)
      return { sql: `coalesce(${sqls.join(", ")})`, kind }
    }
    case "lower":
    case "upper":
      arity(1)
      return { sql: `${name}UTF8(${asText(arg(0))})`, kind: "string" }
    case "len":
      arity(1)
      return { sql: `toFloat64(lengthUTF8(${asText(arg(0))}))`, kind: "number" }
    case "substr": {
      arity(2, 3)
      const length = args.length === 3 ? `, toInt64(${asNumber(arg(2))})` : ""
      return {
        sql: `substringUTF8(${asText(arg(0))}, toInt64(${asNumber(arg(1))})${length})`,
        kind: "string"
      }
    }
    case "round": {
      arity(1, 2)
      const digits = args.length === 2 ? INTEGER.exec(arg(1).sql)?.[1] : "0"
      if (digits === undefined || Math.abs(Number(digits)) > 15)
        refuse(context.command, context.at, "round() takes a whole number of digits (0 to 15)")
      const scale = `pow(10, ${Number(digits)})`
      // Halves round away from zero (SPL), where the engine rounds floats half to even; the
      // lambda reads x once, so nested rounds do not repeat their argument's SQL.
      const away = `__v -> sign(__v) * floor(abs(__v) * ${scale} + 0.5) / ${scale}`
      return { sql: `arrayElement(arrayMap(${away}, [${asNumber(arg(0))}]), 1)`, kind: "number" }
    }
    case "tonumber": {
      arity(1, 2)
      const base = args.length === 2 ? INTEGER.exec(arg(1).sql)?.[1] : "10"
      if (base === undefined)
        refuse(context.command, context.at, "tonumber() takes its base as a whole number")
      return numberInBase(context, arg(0), Number(base))
    }
    case "tostring":
      arity(1, 2)
      return args.length === 1
        ? { sql: asText(arg(0)), kind: "string" }
        : formattedString(context, arg(0), literals[1] ?? null)
    case "isnull":
    case "isnotnull":
      arity(1)
      return { sql: `${name === "isnull" ? "isNull" : "isNotNull"}(${arg(0).sql})`, kind: "bool" }
    case "like":
    case "match":
      arity(2)
      return { sql: `${name}(${asText(arg(0))}, ${asText(arg(1))})`, kind: "bool" }
    default:
      return refuse(context.command, context.at, `the function ${name}() is not in the subset`)
  }
}
