import { Schema } from "effect"

/**
 * Names of organizations and clusters: they appear in paths and query parameters, so
 * they are URL-safe. `what` names the thing in the error, e.g. "an organization name".
 */
export const urlSafeName = (what: string) =>
  Schema.String.pipe(
    Schema.pattern(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,63}$/, {
      message: () =>
        `${what} is 1 to 64 letters, digits, '_', '-' or '.', starting with a letter or digit`
    })
  )
