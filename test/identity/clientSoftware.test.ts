/**
 * The program a device login's start request names, as the approval shows it: sluice's
 * own header pair, else the user agent's first product; clipped and without control
 * characters, since any caller may send anything.
 */
import { describe, expect, it } from "vitest"
import { clientSoftwareOf } from "../../src/identity/http/ClientSoftware.js"

describe("clientSoftwareOf", () => {
  it("takes x-service-client and its version", () => {
    expect(
      clientSoftwareOf({
        "x-service-client": "rtree",
        "x-service-client-version": "0.6.5",
        "user-agent": "node"
      })
    ).toEqual({ name: "rtree", version: "0.6.5" })
  })

  it("takes an older command line's version from its user agent", () => {
    expect(
      clientSoftwareOf({ "x-service-client": "cli", "user-agent": "sluice-cli/0.1.0 node/20.1.0" })
    ).toEqual({ name: "cli", version: "0.1.0" })
    // Another program's user agent is not taken for the named client's version.
    expect(clientSoftwareOf({ "x-service-client": "ui", "user-agent": "curl/8.5.0" })).toEqual({
      name: "ui",
      version: null
    })
  })

  it("falls back to the user agent's first product, or to none", () => {
    expect(clientSoftwareOf({ "user-agent": "curl/8.5.0" })).toEqual({
      name: "curl",
      version: "8.5.0"
    })
    expect(clientSoftwareOf({ "user-agent": "Mozilla/5.0 (X11; Linux x86_64)" })).toEqual({
      name: "Mozilla",
      version: "5.0"
    })
    expect(clientSoftwareOf({ "user-agent": "probe" })).toEqual({ name: "probe", version: null })
    expect(clientSoftwareOf({})).toBeNull()
    expect(clientSoftwareOf({ "x-service-client": "  ", "user-agent": "" })).toBeNull()
  })

  it("drops control characters and clips to 64 characters", () => {
    expect(
      clientSoftwareOf({
        "x-service-client": "evil\u001b[31m\nname",
        "x-service-client-version": "v".repeat(300)
      })
    ).toEqual({ name: "evil[31mname", version: "v".repeat(64) })
  })
})
