/**
 * `sluice open`: the console's address for the profile's scope (its routes are
 * `/{organization}/{cluster}/{view}?database=…`), printed without a browser, handed to
 * xdg-open where there is a display. No server is needed: nothing is requested.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { cli, configHome, waitFor, spawnCli } from "./cliProcess.js"

const env = { SLUICE_URL: "http://127.0.0.1:9/", SLUICE_TOKEN: "rt_unused" }

describe("sluice open", () => {
  it("prints the console's page for the scope when no browser can be opened, or with --print", async () => {
    const plain = await cli(["open"], { env: { ...env, DISPLAY: "" } })
    expect(plain.code, plain.stderr).toBe(0)
    expect(plain.stdout).toBe("http://127.0.0.1:9/default/default/sql\n")
    const search = await cli(
      ["open", "search", "status>=500 | stats count", "-d", "web", "--cluster", "c 1", "--print"],
      { env }
    )
    expect(search.stdout.trim()).toBe(
      "http://127.0.0.1:9/default/c%201/search?database=web&spl=status%3E%3D500+%7C+stats+count"
    )
    const table = await cli(["open", "tables", "events", "--organization", "acme", "--print"], {
      env
    })
    expect(table.stdout.trim()).toBe("http://127.0.0.1:9/acme/default/tables?table=events")
    const bad = await cli(["open", "dashboards"], { env })
    expect(bad.code).toBe(2)
  })

  it("hands the address to xdg-open where there is a display", async () => {
    const dir = configHome()
    const opened = path.join(dir, "opened")
    fs.writeFileSync(
      path.join(dir, "xdg-open"),
      `#!/bin/sh\necho "$1" > "${opened}.tmp"\nmv "${opened}.tmp" "${opened}"\n`,
      {
        mode: 0o755
      }
    )
    const child = spawnCli(["open", "metrics", "up"], {
      env: { ...env, DISPLAY: ":9", PATH: `${dir}${path.delimiter}${process.env.PATH ?? ""}` }
    })
    child.stdin!.end()
    await waitFor(child.stderr!, (text) => text.includes("Opened "))
    // The opener runs detached; its file appears once it has.
    while (!fs.existsSync(opened)) await new Promise((resolve) => setTimeout(resolve, 20))
    expect(fs.readFileSync(opened, "utf8")).toBe(
      "http://127.0.0.1:9/default/default/metrics?promql=up\n"
    )
  })
})
