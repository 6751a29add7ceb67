/** The result formats of `POST /v1/query` and the content type each is served as. */
import type { QueryFormat } from "../../domain/api/QueryApi.js"

const contentTypes: Record<QueryFormat, string> = {
  JSON: "application/json",
  JSONCompact: "application/json",
  JSONEachRow: "application/x-ndjson",
  JSONEachRowWithProgress: "application/x-ndjson",
  CSV: "text/csv",
  CSVWithNames: "text/csv",
  TSV: "text/tab-separated-values",
  TSVWithNames: "text/tab-separated-values",
  TabSeparated: "text/tab-separated-values"
}

export const contentType = (format: QueryFormat) => `${contentTypes[format]}; charset=utf-8`
