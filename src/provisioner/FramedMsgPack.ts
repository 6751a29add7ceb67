/**
 * The engine channel's serialization: each message is MessagePack behind a 4-byte length,
 * and a message is unpacked once all of it has arrived. `@effect/rpc`'s own MessagePack
 * serialization finds a message's end by trying to unpack everything buffered on each
 * socket read, copying the buffer again each time, so time grew with the square of a
 * message's size: a large result took many times as long over the worker as chDB took
 * in-process; read once whole, far less.
 */
import { RpcSerialization } from "@effect/rpc"
import { Layer } from "effect"
import { Packr, RESERVE_START_SPACE, Unpackr } from "msgpackr"

const LENGTH_BYTES = 4

/**
 * A packer keeps its output buffer for the next messages (until it passes 1 GB): after a
 * message larger than this, a fresh one is taken, so a worker does not hold a buffer the
 * size of its largest result for good.
 */
const RETAINED_BYTES = 1024 * 1024

const packer = () => new Packr({ useRecords: true })

/** The bytes of `pieces`, taken as one run, from `start` to `end`: copied only if split. */
const slice = (pieces: ReadonlyArray<Uint8Array>, start: number, end: number): Uint8Array => {
  let offset = 0
  for (const piece of pieces) {
    if (start >= offset && end <= offset + piece.length) {
      return piece.subarray(start - offset, end - offset)
    }
    offset += piece.length
  }
  return Buffer.concat(pieces).subarray(start, end)
}

export const framedMsgPack: RpcSerialization.RpcSerialization["Type"] =
  RpcSerialization.RpcSerialization.of({
    contentType: "application/x-sluice-framed-msgpack",
    includesFraming: true,
    unsafeMake() {
      let packr = packer()
      const unpackr = new Unpackr({ useRecords: true })
      // What has arrived of the next messages, in socket reads, and its length.
      let held: Array<Uint8Array> = []
      let heldBytes = 0
      return {
        encode(message) {
          // Packed after room for the length: the frame is the packer's own bytes, not a
          // copy (a packer never writes over bytes it has handed out).
          const frame = packr.pack(message, RESERVE_START_SPACE | LENGTH_BYTES)
          frame.writeUInt32BE(frame.length - LENGTH_BYTES, 0)
          if (frame.length > RETAINED_BYTES) packr = packer()
          return frame
        },
        decode(bytes) {
          const read =
            typeof bytes === "string" ? new TextEncoder().encode(bytes) : (bytes as Uint8Array)
          held.push(read)
          heldBytes += read.length
          const messages: Array<unknown> = []
          let at = 0
          while (heldBytes - at >= LENGTH_BYTES) {
            const header = slice(held, at, at + LENGTH_BYTES)
            const length = Buffer.from(header.buffer, header.byteOffset, LENGTH_BYTES).readUInt32BE(
              0
            )
            if (heldBytes - at < LENGTH_BYTES + length) break
            messages.push(
              unpackr.unpack(slice(held, at + LENGTH_BYTES, at + LENGTH_BYTES + length))
            )
            at += LENGTH_BYTES + length
          }
          if (at > 0) {
            const rest = heldBytes === at ? [] : [slice(held, at, heldBytes)]
            held = rest
            heldBytes -= at
          }
          return messages
        }
      }
    }
  })

export const layerFramedMsgPack = Layer.succeed(RpcSerialization.RpcSerialization, framedMsgPack)
