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
      default: {
        // Validations name their variable in the message (and may carry it as a path
        // too); parse errors carry only the path.
        const name = e.path.join(".")
        const named = name === "" || e.message.startsWith(`${name}:`)
        lines.add(named ? e.message : `${name}: ${e.message}`)
      }
    }
  }
  visit(error)
  return [...lines].join("; ")
}
