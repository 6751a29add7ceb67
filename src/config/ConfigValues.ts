/** Readers of single settings whose errors name the variable. */
import { Config, ConfigError, Either, Option, Redacted } from "effect"

/** A validation whose message names the variable (Effect reports these without a path). */
export const check =
  <A>(name: string, message: string, validation: (a: A) => boolean) =>
  (config: Config.Config<A>) =>
    Config.validate(config, { message: `${name}: ${message}`, validation })

/** An optional secret of at least `minLength` characters; its value never appears in errors. */
export const optionalSecret = (name: string, minLength: number) =>
  Config.option(
    Config.redacted(name).pipe(
      check(
        name,
        `expected at least ${minLength} characters`,
        (r) => Redacted.value(r).length >= minLength
      )
    )
  )

export const port = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    check(name, "expected a port number between 0 and 65535", (n) => n >= 0 && n <= 65_535),
    Config.withDefault(fallback)
  )

export const positiveInt = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    check(name, "expected a positive integer", (n) => n > 0),
    Config.withDefault(fallback)
  )

export const nonNegativeInt = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    check(name, "expected 0 or a positive integer", (n) => n >= 0),
    Config.withDefault(fallback)
  )

export const httpUrl = (name: string) =>
  Config.string(name).pipe(
    check(name, "expected an http:// or https:// URL", (s) => /^https?:\/\/[^\s]+$/.test(s))
  )

export const email = (name: string) =>
  Config.string(name).pipe(
    check(name, "expected an email address", (s) => /^[^\s@]+@[^\s@]+$/.test(s))
  )

const lacksSome = (error: ConfigError.ConfigError): boolean =>
  error._op === "MissingData" ||
  ((error._op === "And" || error._op === "Or") && (lacksSome(error.left) || lacksSome(error.right)))

const isSet = (name: string) =>
  Config.string(name).pipe(
    Config.map((value) => value !== ""),
    Config.withDefault(false)
  )

/**
 * Settings that mean something only together (a ClickHouse server's URL with its user, an
 * OIDC issuer with its audience): absent when none of them is set. `Config.option` alone
 * reads a group missing one of its `required` settings as no group at all, so an issuer
 * given without its audience turned OpenID Connect off without a word; here that stops the
 * start, naming what is missing and what was given.
 */
export const settingGroup = <A>(
  names: { readonly required: ReadonlyArray<string>; readonly optional: ReadonlyArray<string> },
  config: Config.Config<A>
): Config.Config<Option.Option<A>> => {
  const all = [...names.required, ...names.optional]
  // A required setting missing beside a bad one: named first, as a group given in part.
  const read = config.pipe(
    Config.map(Option.some),
    Config.orElseIf({ if: lacksSome, orElse: () => Config.succeed(Option.none<A>()) })
  )
  return Config.all([Config.all(all.map(isSet)), read]).pipe(
    Config.mapOrFail(([set, group]) => {
      const given = all.filter((_, i) => set[i])
      if (Option.isSome(group) || given.length === 0) return Either.right(group)
      const missing = names.required.filter((name) => !given.includes(name))
      return Either.left(
        ConfigError.MissingData(
          [missing[0] ?? all[0]!],
          `${missing.join(" and ")}: required with ${given.join(" and ")}`
        )
      )
    })
  )
}
