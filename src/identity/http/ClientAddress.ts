/**
 * The client a request came from, as the sign-in and device-login throttles count it: the
 * socket's peer, or with `SLUICE_TRUST_PROXY` the address the proxy in front appended to
 * `X-Forwarded-For` (its last entry; the ones before it are whatever the client sent).
 * An IPv6 client counts by its /64, the block one host is usually given.
 */
import type { HttpServerRequest } from "@effect/platform"
import { Option } from "effect"

const expandIpv6 = (address: string) => {
  const [head = "", tail] = address.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const zeros =
    tail === undefined ? [] : Array(Math.max(0, 8 - left.length - right.length)).fill("0")
  return [...left, ...zeros, ...right]
}

/** The throttles' key for an address: IPv4 as is, IPv6 by its first 64 bits. */
export const addressKey = (address: string) => {
  const bare = address
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase()
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)
  if (mapped !== null) return mapped[1]!
  if (!bare.includes(":")) return bare
  return `${expandIpv6(bare)
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`
}

export const clientAddress = (
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: boolean
) => {
  const forwarded = trustProxy
    ? request.headers["x-forwarded-for"]?.split(",").at(-1)?.trim()
    : undefined
  return addressKey(
    forwarded !== undefined && forwarded !== ""
      ? forwarded
      : Option.getOrElse(request.remoteAddress, () => "unknown")
  )
}
