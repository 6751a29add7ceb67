/**
 * The server's hints name API calls; the CLI names its own commands instead, whole: a
 * call with a path or query below a listing becomes one command, not a command followed
 * by the rest of the path.
 */
import { describe, expect, it } from "@effect/vitest"
import { cliHint } from "../../src/cli/Http.js"

const hintOf = (hint: string) => cliHint("message", hint)

describe("the CLI's hints", () => {
  it("names the command for a listing, a table's columns and an organization's members", () => {
    expect(
      hintOf(
        "Check the SQL. GET /v1/tables lists the tables; GET /v1/tables/{table} lists a table's columns."
      )
    ).toBe(
      "Check the SQL. `sluice tables` lists the tables; `sluice tables describe TABLE` lists a table's columns."
    )
    expect(hintOf("GET /v1/organizations/acme/members lists the members.")).toBe(
      "`sluice members` lists the members."
    )
    expect(hintOf("GET /v1/organizations lists the organizations you belong to.")).toBe(
      "`sluice organizations` lists the organizations you belong to."
    )
    expect(hintOf("GET /v1/clusters?organization=<name> lists the organization's clusters.")).toBe(
      "`sluice clusters` lists the organization's clusters."
    )
    expect(hintOf("Retry shortly; GET /v1/clusters shows the cluster's status.")).toBe(
      "Retry shortly; `sluice clusters` shows the cluster's status."
    )
  })

  it("names the command that changes what the hint's call changes", () => {
    expect(hintOf("Delete its tables instead (DELETE /v1/tables/{table}).")).toBe(
      "Delete its tables instead (`sluice tables drop TABLE`)."
    )
    expect(
      hintOf(
        "An organization admin can resume it: POST /v1/clusters/c-1/resume?organization=<name>."
      )
    ).toBe("An organization admin can resume it: `sluice clusters resume CLUSTER`.")
    expect(
      hintOf(
        "Pick another name, or change the existing search with PATCH /v1/apps/spl/searches/{search_id}."
      )
    ).toBe("Pick another name, or change the existing search with `sluice saved-searches update`.")
    expect(hintOf("Save a copy of your own with POST /v1/apps/spl/searches.")).toBe(
      "Save a copy of your own with `sluice saved-searches create`."
    )
    expect(hintOf("Apps: spl-app, metrics-app. GET /v1/apps lists them with their state.")).toBe(
      "Apps: spl-app, metrics-app. `sluice apps` lists them with their state."
    )
  })

  it("drops the sizes call, keeping the sentence whole", () => {
    expect(hintOf("Pick one of: 1x4, 2x8 (GET /v1/clusters/sizes).")).toBe("Pick one of: 1x4, 2x8.")
  })

  it("leaves a hint without API calls as it is", () => {
    expect(hintOf("Use a replica count from 1 through 3.")).toBe(
      "Use a replica count from 1 through 3."
    )
  })
})
