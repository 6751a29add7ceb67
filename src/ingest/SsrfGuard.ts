/**
 * Which addresses URL ingest may connect to: public unicast only,
 * unless `SLUICE_URL_INGEST_ALLOW` names the host, address or network
 * (`config/UrlAllowList.ts`).
 */
import ipaddr from "ipaddr.js"
import type { Address, AllowList } from "../config/UrlAllowList.js"

const v4 = (high: number, low: number) =>
  new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff])

/**
 * The IPv4 address an IPv6 one carries: IPv4-compatible (`::127.0.0.1`, which URLs write
 * `::7f00:1` and ipaddr.js calls unicast), mapped, translated (`::ffff:0:a.b.c.d`), NAT64
 * (`64:ff9b::/96`, and the local-use `64:ff9b:1::/48` written the same way), 6to4
 * (`2002:a.b.c.d::`) and Teredo (its client, inverted in the last 32 bits).
 */
const carriedIPv4 = (address: ipaddr.IPv6): ipaddr.IPv4 | undefined => {
  const [p0, p1 = 0, p2 = 0, p3, p4, p5, p6 = 0, p7 = 0] = address.parts
  const zeros = p0 === 0 && p1 === 0 && p2 === 0 && p3 === 0
  if (zeros && p4 === 0 && (p5 === 0 || p5 === 0xffff)) return v4(p6, p7)
  if (zeros && p4 === 0xffff && p5 === 0) return v4(p6, p7)
  if (p0 === 0x64 && p1 === 0xff9b) return v4(p6, p7)
  if (p0 === 0x2002) return v4(p1, p2)
  if (p0 === 0x2001 && p1 === 0) return v4(p6 ^ 0xffff, p7 ^ 0xffff)
  return undefined
}

/**
 * Public unicast only: ipaddr.js classifies loopback, private, link-local (the metadata
 * address included), CGNAT, multicast, broadcast, unspecified and reserved ranges, and
 * most v6 forms carrying a v4 address, as other ranges; a v6 address that carries a v4
 * one is public only if that v4 address is too, whatever ipaddr.js calls it.
 */
export const isPublicUnicast = (address: Address): boolean => {
  if (address.range() !== "unicast") return false
  if (!(address instanceof ipaddr.IPv6)) return true
  const carried = carriedIPv4(address)
  return carried === undefined || carried.range() === "unicast"
}

/** Whether a connection to `address` (resolved from `host`) on `port` may be opened. */
export const mayConnect = (
  allow: AllowList,
  host: string,
  address: string,
  port: number
): boolean => {
  if (!ipaddr.isValid(address)) return false
  const parsed = ipaddr.parse(address)
  if (isPublicUnicast(parsed)) return true
  return allow.entries.some(
    (entry) => (entry.port === undefined || entry.port === port) && entry.match(host, parsed)
  )
}
