/** The one line a listen failure stops the start with: the setting to change, and why. */
import { describe, expect, it } from "@effect/vitest"
import { cannotListen } from "../../src/config/CannotListen.js"

const systemError = (code: string) => Object.assign(new Error(`listen ${code}`), { code })

describe("cannotListen", () => {
  it("names the port's setting for a port in use, the code found on the error's cause", () => {
    const wrapped = new Error("An error has occurred", { cause: systemError("EADDRINUSE") })
    expect(cannotListen("HTTP", "SLUICE_PORT", "127.0.0.1:8080", wrapped).message).toBe(
      "HTTP cannot listen on 127.0.0.1:8080 (SLUICE_PORT): the port is in use by another process"
    )
  })

  it("reads the code from the message when the error carries none (as @grpc/grpc-js's)", () => {
    const grpc = new Error(
      "No address added out of total 1 resolved: listen EADDRINUSE: address in use"
    )
    expect(cannotListen("OTLP/gRPC", "SLUICE_GRPC_PORT", "127.0.0.1:4317", grpc).message).toBe(
      "OTLP/gRPC cannot listen on 127.0.0.1:4317 (SLUICE_GRPC_PORT): the port is in use by another process"
    )
  })

  it("names SLUICE_HOST for an address that is not this machine's", () => {
    expect(
      cannotListen("HTTP", "SLUICE_PORT", "10.0.0.9:8080", systemError("EADDRNOTAVAIL")).message
    ).toBe(
      "HTTP cannot listen on 10.0.0.9:8080 (SLUICE_HOST): the address is not one of this machine's"
    )
  })

  it("keeps the system's own words for anything else", () => {
    expect(
      cannotListen("HTTP", "SLUICE_PORT", "127.0.0.1:1", new Error("something odd")).message
    ).toBe("HTTP cannot listen on 127.0.0.1:1 (SLUICE_PORT): something odd")
  })
})
