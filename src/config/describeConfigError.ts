import type { ConfigError } from "effect"

/**
 * One line naming each offending variable and why, e.g.
 * `SLUICE_PORT: expected a port number between 0 and 65535`. Effect's own rendering
 * nests and/or trees, which is hard to read at start-up.
 */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  const lines = new Set<string>()
  const visit = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        visit(e.left)
        visit(e.right)
        return
      default:
        // Validations name their variable in the message; parse errors carry a path.
        lines.add(e.path.length > 0 ? `${e.path.join(".")}: ${e.message}` : e.message)
    }
  }
  visit(error)
  return [...lines].join("; ")
}
