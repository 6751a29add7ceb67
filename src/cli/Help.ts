/** Command descriptions: what it does and one example, on one line for the listings. */
export const describe = (summary: string, example: string) => `${summary} Example: ${example}`

/** The short listing `sluice` and `sluice --help` print (the parser's lists every option of every command). */
export const rootHelp = (commands: ReadonlyArray<readonly [string, string]>, version: string) =>
  [
    `sluice ${version}: the sluice command line`,
    "",
    "Usage: sluice <command> [options]    (sluice <command> --help for its options and an example)",
    "",
    "Commands:",
    ...commands.map(([name, summary]) => `  ${name.padEnd(16)}${summary}`),
    "",
    "Every command takes --profile, --url, --organization, --cluster and --database (-d);",
    "SLUICE_PROFILE, SLUICE_URL and SLUICE_TOKEN override the profile file.",
    "Also: --completions bash|zsh|fish, --version. Exit codes: 0 ok, 1 error, 2 bad usage, 130 interrupted.",
    ""
  ].join("\n")
