// snappyjs ships no types; only the block decoder and encoder are used.
declare module "snappyjs" {
  export function uncompress(compressed: Uint8Array, maxLength?: number): Uint8Array
  export function compress(uncompressed: Uint8Array): Uint8Array
}
