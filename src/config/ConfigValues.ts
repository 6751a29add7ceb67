/** Readers of single settings whose errors name the variable. */
import { Config, Redacted } from "effect"

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
