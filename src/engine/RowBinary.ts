/**
 * What the engine's `RowBinary` input needs of a JavaScript number: an Int64 written
 * from a double, for the binary inserts (samples, events).
 */
const TWO_32 = 2 ** 32

/**
 * `value` (an integer below 2^53 in magnitude) as a little-endian Int64 at `at`: two's
 * complement in two 32-bit words, without a BigInt.
 */
export const setInt64 = (view: DataView, at: number, value: number) => {
  const high = Math.floor(value / TWO_32)
  view.setUint32(at, value - high * TWO_32, true)
  view.setInt32(at + 4, high, true)
}
