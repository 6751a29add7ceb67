/**
 * Which addresses URL ingest may connect to (decisions.md §6): public unicast only,
 * unless `SLUICE_URL_INGEST_ALLOW` names the host, address or network
 * (`config/UrlAllowList.ts`).
 */
import ipaddr from "ipaddr.js"
import type { Address, AllowList } from "../config/UrlAllowList.js"

/**
 * Public unicast only: ipaddr.js classifies loopback, private, link-local (the metadata
 * address included), CGNAT, multicast, broadcast, unspecified, reserved, IPv4-mapped and
 * the v6 transition ranges that embed a v4 address (6to4, NAT64, Teredo) as other ranges.
 */
export const isPublicUnicast = (address: Address): boolean => address.range() === "unicast"

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
