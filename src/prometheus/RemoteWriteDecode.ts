/**
 * A remote-write 1.0 body into what the series tables take: snappy block format, then
 * the protobuf `WriteRequest`, read into its series (checked and identified) and its
 * samples' insert body. Nothing is stored from a body that does not decode whole.
 */
import { Effect } from "effect"
import { BadRequest, PayloadTooLarge } from "../../domain/Errors.js"
import { MetricMetadata_MetricType } from "./gen/prometheus/remote_pb.js"
import type { Labels } from "./SeriesLabels.js"
import { seriesId, validLabels } from "./SeriesLabels.js"
import { idColumn, SamplesBody } from "./SamplesBody.js"
import { announcedLength, makeSnappyDecoder } from "./SnappyBlock.js"
import type { ReadRequest, Unstored } from "./WriteRequestReader.js"
import { readLabels, readSamples, readWriteRequest } from "./WriteRequestReader.js"

export interface DecodedSeries {
  readonly id: string
  readonly labels: Labels
  readonly samples: number
  /** Its samples' first and last times, in ms since the epoch (when it has samples). */
  readonly minTime: number
  readonly maxTime: number
}

/** A metric family's metadata, as Prometheus's `/metadata` answers it. */
export interface DecodedMetadata {
  readonly metric: string
  readonly type: string
  readonly help: string
  readonly unit: string
}

export interface DecodedWrite {
  readonly series: ReadonlyArray<DecodedSeries>
  readonly samples: number
  /** The samples as the samples table's insert body, `RowBinary` (SamplesBody.ts). */
  readonly rows: ReadonlyArray<Uint8Array>
  readonly metadata: ReadonlyArray<DecodedMetadata>
  /** Exemplars and native-histogram samples the body carried, which are not stored. */
  readonly unstored: Unstored
}

const corrupt = (what: string) =>
  new BadRequest({
    message: `The remote-write body is not valid: ${what}.`,
    hint: "Send a snappy-compressed (block format) protobuf WriteRequest, as remote write 1.0 does."
  })

/**
 * What a writer keeps between bodies: what it made of a series' label bytes before
 * (`ReadSeries.labelBytes`), its label set and id, and its snappy buffer (SnappyBlock.ts).
 * Equal bytes are the equal label set, so an entry never goes out of date; past the bound
 * it is forgotten whole. For series sent again and again, decoding, checking, sorting and
 * hashing the labels was a large part of decoding a body.
 */
interface Identity {
  readonly id: string
  readonly labels: Labels
  /** The id as the start of its samples' rows (SamplesBody.ts). */
  readonly column: Uint8Array
}

export const makeDecoderMemory = (bound = 200_000) => {
  const known = new Map<string, Identity>()
  return {
    uncompress: makeSnappyDecoder(),
    get: (bytes: string) => known.get(bytes),
    remember: (bytes: string, series: Identity) => {
      if (known.size >= bound) known.clear()
      known.set(bytes, series)
    }
  }
}

export type DecoderMemory = ReturnType<typeof makeDecoderMemory>

/**
 * The request's series, checked and identified, and their samples' insert body; or the
 * first label problem. Throws `Malformed` on bytes that do not decode.
 */
const seriesOf = (
  request: ReadRequest,
  known: DecoderMemory
): Omit<DecodedWrite, "metadata" | "unstored"> | { readonly problem: string } => {
  const series: Array<DecodedSeries> = []
  let samples = 0
  for (const one of request.series) samples += one.samples
  const body = new SamplesBody(samples)
  for (const one of request.series) {
    let identity = one.labelBytes === undefined ? undefined : known.get(one.labelBytes)
    if (identity === undefined) {
      const checked = validLabels(readLabels(request, one))
      if ("problem" in checked) return checked
      const id = seriesId(checked.labels)
      identity = { id, labels: checked.labels, column: idColumn(id) }
      if (one.labelBytes !== undefined) known.remember(one.labelBytes, identity)
    }
    body.series(identity.column)
    readSamples(request, one, body)
    series.push({
      id: identity.id,
      labels: identity.labels,
      samples: one.samples,
      minTime: body.minTime,
      maxTime: body.maxTime
    })
  }
  return { series, samples, rows: body.finish() }
}

export const decodeRemoteWrite = (
  compressed: Uint8Array,
  limit: number,
  known: DecoderMemory
): Effect.Effect<DecodedWrite, BadRequest | PayloadTooLarge> =>
  Effect.gen(function* () {
    const length = announcedLength(compressed)?.length
    if (length === undefined) return yield* corrupt("the snappy header is missing")
    // Refused before anything is allocated for it.
    if (length > limit)
      return yield* new PayloadTooLarge({
        message: `The remote-write body is ${length} bytes uncompressed; at most ${limit} are accepted.`,
        hint: "Lower the sender's max_samples_per_send (queue_config), or raise SLUICE_METRICS_MAX_WRITE_BYTES."
      })
    const raw = yield* Effect.try({
      try: () => known.uncompress(compressed),
      catch: () => corrupt("snappy decompression failed")
    })
    const request = yield* Effect.try({
      try: () => readWriteRequest(raw),
      catch: () => corrupt("the protobuf WriteRequest does not decode")
    })
    const read = yield* Effect.try({
      try: () => seriesOf(request, known),
      catch: () => corrupt("the protobuf WriteRequest does not decode")
    })
    if ("problem" in read) return yield* corrupt(read.problem)
    const metadata = request.metadata
      .filter((m) => m.metricFamilyName !== "")
      .map((m) => ({
        metric: m.metricFamilyName,
        type: (MetricMetadata_MetricType[m.type] ?? "UNKNOWN").toLowerCase(),
        help: m.help,
        unit: m.unit
      }))
    return { ...read, metadata, unstored: request.unstored }
  })
