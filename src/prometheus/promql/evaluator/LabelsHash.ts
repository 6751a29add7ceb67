/**
 * Prometheus's `labels.Hash()`: xxHash64 (seed 0) of the label set sorted by name, each
 * name and value followed by 0xff. `limit_ratio` samples series by it, so the series it
 * keeps are the ones Prometheus keeps.
 */
import type { Labels } from "../../SeriesLabels.js"

const MASK = (1n << 64n) - 1n
const P1 = 0x9e3779b185ebca87n
const P2 = 0xc2b2ae3d27d4eb4fn
const P3 = 0x165667b19e3779f9n
const P4 = 0x85ebca77c2b2ae63n
const P5 = 0x27d4eb2f165667c5n

const rotl = (x: bigint, r: bigint) => ((x << r) | (x >> (64n - r))) & MASK
const round = (acc: bigint, lane: bigint) => (rotl((acc + lane * P2) & MASK, 31n) * P1) & MASK
const merge = (acc: bigint, value: bigint) => (((acc ^ round(0n, value)) * P1) & MASK) + P4

export const xxhash64 = (bytes: Uint8Array): bigint => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u64 = (at: number) => view.getBigUint64(at, true)
  let at = 0
  let h: bigint
  if (bytes.length >= 32) {
    let v1 = (P1 + P2) & MASK
    let v2 = P2
    let v3 = 0n
    let v4 = (MASK + 1n - P1) & MASK
    for (; at + 32 <= bytes.length; at += 32) {
      v1 = round(v1, u64(at))
      v2 = round(v2, u64(at + 8))
      v3 = round(v3, u64(at + 16))
      v4 = round(v4, u64(at + 24))
    }
    h = (rotl(v1, 1n) + rotl(v2, 7n) + rotl(v3, 12n) + rotl(v4, 18n)) & MASK
    for (const v of [v1, v2, v3, v4]) h = merge(h, v) & MASK
  } else h = P5
  h = (h + BigInt(bytes.length)) & MASK
  for (; at + 8 <= bytes.length; at += 8) h = ((rotl(h ^ round(0n, u64(at)), 27n) * P1) & MASK) + P4
  if (at + 4 <= bytes.length) {
    h = ((rotl(h ^ ((BigInt(view.getUint32(at, true)) * P1) & MASK), 23n) * P2) & MASK) + P3
    at += 4
  }
  for (; at < bytes.length; at++)
    h = (rotl(h ^ ((BigInt(bytes[at]!) * P5) & MASK), 11n) * P1) & MASK
  h &= MASK
  h ^= h >> 33n
  h = (h * P2) & MASK
  h ^= h >> 29n
  h = (h * P3) & MASK
  h ^= h >> 32n
  return h
}

const encoder = new TextEncoder()

export const labelsHash = (labels: Labels): bigint => {
  const parts: Array<Uint8Array> = []
  for (const name of Object.keys(labels).sort())
    parts.push(
      encoder.encode(name),
      Uint8Array.of(0xff),
      encoder.encode(labels[name]!),
      Uint8Array.of(0xff)
    )
  return xxhash64(Buffer.concat(parts))
}
