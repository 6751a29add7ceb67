/**
 * `SLUICE_URL_INGEST_ALLOW`: the hosts, addresses or networks URL ingest may fetch from
 * beyond public unicast addresses (`ingest/SsrfGuard.ts`). Entries are
 * comma-separated: a host name (`files.internal`), an address (`10.0.0.5`, `::1`), a
 * CIDR (`10.0.0.0/8`), each optionally with `:port` (`127.0.0.1:8080`,
 * `[::1]:8080`, `files.internal:443`) to allow that port only.
 */
import ipaddr from "ipaddr.js"

export type Address = ipaddr.IPv4 | ipaddr.IPv6

interface AllowEntry {
  readonly match: (host: string, address: Address) => boolean
  readonly port: number | undefined
}

export interface AllowList {
  readonly entries: ReadonlyArray<AllowEntry>
}

/** Unwraps `::ffff:a.b.c.d` so an allow entry written as IPv4 matches it too. */
const normalized = (address: Address): Address =>
  address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address

const splitPort = (entry: string): { readonly host: string; readonly port: number | undefined } => {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry)
  if (bracketed)
    return { host: bracketed[1]!, port: bracketed[2] ? Number(bracketed[2]) : undefined }
  const hostPort = /^([^:/]+|[^:]+\/\d+):(\d+)$/.exec(entry)
  if (hostPort) return { host: hostPort[1]!, port: Number(hostPort[2]) }
  return { host: entry, port: undefined }
}

const entryOf = (raw: string): AllowEntry | string => {
  const { host, port } = splitPort(raw)
  if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535))
    return `'${raw}' has an invalid port`
  if (host.includes("/")) {
    try {
      const [network, bits] = ipaddr.parseCIDR(host)
      const net = normalized(network)
      return {
        port,
        match: (_host, address) => {
          const a = normalized(address)
          return (
            a.kind() === net.kind() &&
            a.match(net, net.kind() === network.kind() ? bits : bits - 96)
          )
        }
      }
    } catch {
      return `'${raw}' is not a valid CIDR`
    }
  }
  if (ipaddr.isValid(host)) {
    const allowed = normalized(ipaddr.parse(host)).toString()
    return { port, match: (_host, address) => normalized(address).toString() === allowed }
  }
  if (!/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(host)) return `'${raw}' is not a host name`
  const name = host.toLowerCase()
  return { port, match: (requested: string) => requested.toLowerCase() === name }
}

/** Parses the setting; `Left` names the first bad entry. */
export const parseAllowList = (
  setting: string
):
  | { readonly _tag: "Right"; readonly list: AllowList }
  | { readonly _tag: "Left"; readonly error: string } => {
  const entries: Array<AllowEntry> = []
  for (const raw of setting
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)) {
    const entry = entryOf(raw)
    if (typeof entry === "string") return { _tag: "Left", error: entry }
    entries.push(entry)
  }
  return { _tag: "Right", list: { entries } }
}

export const emptyAllowList: AllowList = { entries: [] }
