/**
 * Sample values as their IEEE-754 bits. Prometheus marks a series stale with one NaN,
 * 0x7ff0000000000002; plain NaNs mean something else. A signalling NaN may come back
 * quieted (bit 51 set) from a JavaScript number, so the marker is recognised by its
 * payload and written back with its exact bits.
 */
export const STALE_BITS = 0x7ff0000000000002n
const QUIET_BIT = 0x0008000000000000n
/** The marker as the two 32-bit words of its bits, for code that reads words. */
export const STALE_HIGH = 0x7ff00000
export const STALE_LOW = 2

const view = new DataView(new ArrayBuffer(8))

export const sampleBits = (value: number): bigint => {
  view.setFloat64(0, value, true)
  const bits = view.getBigUint64(0, true)
  return (bits | QUIET_BIT) === (STALE_BITS | QUIET_BIT) ? STALE_BITS : bits
}
