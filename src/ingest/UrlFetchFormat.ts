/**
 * What a fetched file is: its format by file extension, else by
 * content type; its compression by content-encoding, else by extension or type.
 */
import { Either } from "effect"
import { BadRequest } from "../../domain/Errors.js"
import { mediaType } from "../body/ContentType.js"

export type UrlFileFormat = "json" | "ndjson" | "csv" | "tsv" | "parquet"
export type UrlCompression = "gzip" | "zstd"

export interface UrlFileKind {
  readonly format: UrlFileFormat
  readonly compression: UrlCompression | undefined
}

const byExtension: Record<string, UrlFileFormat> = {
  json: "json",
  ndjson: "ndjson",
  jsonl: "ndjson",
  jsonlines: "ndjson",
  csv: "csv",
  tsv: "tsv",
  tab: "tsv",
  parquet: "parquet"
}

const byType: Record<string, UrlFileFormat> = {
  "application/json": "json",
  "text/json": "json",
  "application/x-ndjson": "ndjson",
  "application/ndjson": "ndjson",
  "application/jsonl": "ndjson",
  "application/x-jsonlines": "ndjson",
  "text/csv": "csv",
  "application/csv": "csv",
  "text/tab-separated-values": "tsv",
  "application/vnd.apache.parquet": "parquet",
  "application/x-parquet": "parquet",
  "application/parquet": "parquet"
}

const compressionOf = (name: string | undefined): UrlCompression | undefined => {
  const n = (name ?? "").trim().toLowerCase()
  if (["gzip", "x-gzip", "gz", "application/gzip", "application/x-gzip"].includes(n)) return "gzip"
  if (["zstd", "zst", "application/zstd"].includes(n)) return "zstd"
  return undefined
}

const unsupported = (what: string) =>
  new BadRequest({
    message: `URL ingest cannot tell the file's format (${what}).`,
    hint: "Name the file with .json, .ndjson, .jsonl, .csv, .tsv or .parquet (optionally .gz or .zst), or serve it with a matching content-type."
  })

export const detectKind = (
  url: string,
  contentType: string | undefined,
  contentEncoding: string | undefined
): Either.Either<UrlFileKind, BadRequest> => {
  const type = mediaType(contentType)
  const parts = new URL(url).pathname.toLowerCase().split("/").pop()!.split(".").slice(1)
  const last = parts.at(-1)
  const extensionCompression = compressionOf(last)
  const formatExtension = extensionCompression === undefined ? last : parts.at(-2)
  const encoding = (contentEncoding ?? "identity").trim().toLowerCase()
  if (encoding !== "identity" && encoding !== "" && compressionOf(encoding) === undefined) {
    return Either.left(
      new BadRequest({
        message: `The file is served with content-encoding ${encoding}, which URL ingest does not read.`,
        hint: "Serve it uncompressed, gzip or zstd."
      })
    )
  }
  const compression = compressionOf(encoding) ?? extensionCompression ?? compressionOf(type)
  const format =
    (formatExtension === undefined ? undefined : byExtension[formatExtension]) ?? byType[type]
  if (format === undefined)
    return Either.left(
      unsupported(`extension ${formatExtension ?? "none"}, type ${type || "none"}`)
    )
  return Either.right({ format, compression })
}
