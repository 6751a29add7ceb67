/** The CLI's version, from package.json, set when the program is bundled. */
declare const __SLUICE_CLI_VERSION__: string | undefined

export const cliVersion: string =
  typeof __SLUICE_CLI_VERSION__ === "string" ? __SLUICE_CLI_VERSION__ : "0.0.0-dev"

/** Every request says it comes from this CLI, so request logs read `source: cli`. */
export const clientHeaders: Readonly<Record<string, string>> = {
  "x-service-client": "cli",
  "x-service-client-version": cliVersion,
  "user-agent": `sluice-cli/${cliVersion} node/${process.versions.node}`
}
