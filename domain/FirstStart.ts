/**
 * What bootstrapping found at start-up: on the first start of an empty
 * control plane, the credentials it just created (organization `default`, cluster
 * `default`, an admin user and an admin API key), shown once; `None` on every later
 * start. Ready before any transport listens, so nothing sees an empty control plane.
 */
import { Context } from "effect"
import type { Option, Redacted } from "effect"

export interface BootstrapCredentials {
  readonly email: string
  /** Present only when the password was generated (not given by SLUICE_ADMIN_PASSWORD). */
  readonly generatedPassword: Option.Option<Redacted.Redacted<string>>
  /** An `admin` key of cluster `default`. */
  readonly apiKey: Redacted.Redacted<string>
}

export class FirstStart extends Context.Tag("sluice/FirstStart")<
  FirstStart,
  Option.Option<BootstrapCredentials>
>() {}
