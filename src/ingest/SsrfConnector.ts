/**
 * An undici `Agent` that checks every address at connect time: the host is resolved
 * here, each address is checked, and the socket is opened to the checked address (so a
 * second, different DNS answer cannot slip in). Every redirect hop opens its own
 * connection through this connector, so each hop is checked.
 */
import { promises as dns } from "node:dns"
import { isIP } from "node:net"
import { Agent, buildConnector } from "undici"
import type { AllowList } from "../config/UrlAllowList.js"
import { mayConnect } from "./SsrfGuard.js"

export type Lookup = (
  hostname: string
) => Promise<ReadonlyArray<{ readonly address: string; readonly family: number }>>

const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true })

/** The connection was refused by the guard; `host` is the name the URL gave. */
export class RefusedAddress extends Error {
  readonly code = "SLUICE_REFUSED_ADDRESS"
  constructor(readonly host: string) {
    super(`'${host}' is not a public address`)
  }
}

const defaultPort = (protocol: string) => (protocol === "https:" ? 443 : 80)

export const guardedAgent = (options: {
  readonly allow: AllowList
  readonly lookup?: Lookup | undefined
  readonly connectTimeoutMs: number
}): Agent => {
  const lookup = options.lookup ?? systemLookup
  const connectTo = buildConnector({ timeout: options.connectTimeoutMs })
  const connect: buildConnector.connector = (params, callback) => {
    const host = params.hostname
    const port = params.port === "" ? defaultPort(params.protocol) : Number(params.port)
    const addresses: Promise<ReadonlyArray<{ readonly address: string }>> =
      isIP(host) !== 0 ? Promise.resolve([{ address: host }]) : lookup(host)
    addresses.then(
      (all) => {
        // Every answer must pass: a name with one private answer is refused whole.
        if (
          all.length === 0 ||
          !all.every((a) => mayConnect(options.allow, host, a.address, port))
        ) {
          callback(new RefusedAddress(host), null)
          return
        }
        connectTo({ ...params, hostname: all[0]!.address }, callback)
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), null)
    )
  }
  return new Agent({ connect })
}
